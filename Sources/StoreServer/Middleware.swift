import Foundation
import Hummingbird
import StoreWire

/// Turns every error into a JSON error body with its status, so clients never see an HTML page
/// or an empty 500. A failure of the server's own (500) tells the client only its code and the
/// request's id: the details (the store's message, with paths, hosts and users) go to the log.
/// A 503 says when to retry.
struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Seconds a client waits before retrying a 503.
    static var retryAfterSeconds: Int { 1 }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let answer = StoreServerError(answering: error)
            let code = answer.wireCode ?? answer.code.rawValue
            var message = answer.message
            if answer.status.code >= 500 {
                let id = context.logger[metadataKey: "hb.request.id"]?.description ?? "unknown"
                context.logger.error("\(request.method) \(request.uri.path) failed: \(answer.message)\(answer.detail.map { " \($0)" } ?? "")")
                if answer.status == .internalServerError {
                    message = "The server failed on this request (\(code)). Its log has the details under request id \(id); retrying may not help."
                }
            }
            var response = try JSONResponse.make(ErrorResponse(code: code, message: message), status: answer.status)
            if answer.status == .serviceUnavailable {
                response.headers[.retryAfter] = "\(Self.retryAfterSeconds)"
            }
            return response
        }
    }
}

/// Requires `Authorization: Bearer <token>` with one of the configured tokens, except for the
/// health check and the API document; with a scope, a token that has it (403 otherwise).
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokens: TokenBook
    /// The scope the routes behind this middleware need; nil to only check that the token is known.
    let scope: StoreServerConfiguration.Scope?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let scope {
            try tokens.require(scope, for: request)
            return try await next(request, context)
        }
        // By suffix: the routes may be mounted under a prefix, and this middleware runs for them alone.
        if request.method == .get, [StoreAPI.health, StoreAPI.document].contains(where: request.uri.path.hasSuffix) {
            return try await next(request, context)
        }
        _ = try tokens.grant(of: request)
        return try await next(request, context)
    }
}
