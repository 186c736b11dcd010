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
