import Dispatch
import HTTPTypes
import Hummingbird

/// Logs each request once it is answered, at info level: method, path, status and milliseconds,
/// with the request's id (`hb.request.id`, also sent back as `X-Request-ID` so a client can quote
/// it). Bodies and tokens are never logged.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    static var requestIDField: HTTPField.Name { HTTPField.Name("X-Request-ID")! }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = DispatchTime.now().uptimeNanoseconds
        var response = try await next(request, context)
        let milliseconds = (DispatchTime.now().uptimeNanoseconds - started) / 1_000_000
        if let id = context.logger[metadataKey: "hb.request.id"] { response.headers[Self.requestIDField] = id.description }
        context.logger.info("\(request.method) \(request.uri.path) \(response.status.code)", metadata: [
            "hb.request.status": "\(response.status.code)", "duration.ms": "\(milliseconds)",
        ])
        return response
    }
}
