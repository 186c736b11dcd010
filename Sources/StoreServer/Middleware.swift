import Foundation
import Hummingbird
import StoreWire

/// Turns every error into a JSON error body with its status, so clients never see an HTML page
/// or an empty 500.
struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let answer = StoreServerError(answering: error)
            if answer.status.code >= 500 {
                context.logger.error("\(request.method) \(request.uri.path) failed: \(answer.message)")
            }
            return try JSONResponse.make(ErrorResponse(code: answer.wireCode ?? answer.code.rawValue, message: answer.message),
                                         status: answer.status)
        }
    }
}

/// Requires `Authorization: Bearer <token>` with one of the configured tokens, except for the
/// health check and the API document.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: [[UInt8]]

    init(tokens: Set<String>) {
        self.tokens = tokens.map { Array($0.utf8) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // By suffix: the routes may be mounted under a prefix, and this middleware runs for them alone.
        if request.method == .get, [StoreAPI.health, StoreAPI.document].contains(where: request.uri.path.hasSuffix) {
            return try await next(request, context)
        }
        guard let header = request.headers[.authorization] else {
            throw StoreServerError(.unauthorized, "This server needs a bearer token: send 'Authorization: Bearer <token>'.")
        }
        // The scheme is case-insensitive (RFC 9110, 11.1): "bearer" and "BEARER" are "Bearer".
        let scheme = header.prefix { $0 != " " }
        let token = header.dropFirst(scheme.count).drop { $0 == " " }
        guard scheme.lowercased() == "bearer", accepts(Array(token.utf8)) else {
            throw StoreServerError(.unauthorized, "The bearer token is not one this server accepts; check the token the server was started with.")
        }
        return try await next(request, context)
    }

    /// Compares against every token without stopping early, so timing tells nothing about them.
    private func accepts(_ candidate: [UInt8]) -> Bool {
        var accepted = false
        for token in tokens {
            var difference = UInt8(token.count == candidate.count ? 0 : 1)
            for index in 0..<max(token.count, candidate.count) {
                let lhs = index < token.count ? token[index] : 0
                let rhs = index < candidate.count ? candidate[index] : 0
                difference |= lhs ^ rhs
            }
            accepted = accepted || difference == 0
        }
        return accepted
    }
}
