import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import StoreWire

/// Answers a request the HTTP parser refuses (headers over the server's limit, a malformed request
/// line) with a JSON error body, as every other error is answered, instead of Hummingbird's empty
/// 400; then closes the connection, whose remaining bytes cannot be trusted.
final class ParserErrorResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundOut = HTTPResponsePart

    private var answered = false

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else { return context.fireErrorCaught(error) }
        guard !answered else { return }
        answered = true
        let (status, message) = Self.answer(to: parserError)
        ClosingAnswer.send(status: status, code: StoreServerError.Code.invalidRequest.rawValue, message: message, context: context)
    }

    private static func answer(to error: HTTPParserError) -> (HTTPResponse.Status, String) {
        switch error {
        case .headerOverflow:
            return (.requestHeaderFieldsTooLarge, "The request's headers are larger than the server accepts (80 KiB); send a shorter token or fewer headers.")
        default:
            return (.badRequest, "The request is not valid HTTP/1.1 (\(error)); send a well-formed request (see /v1/openapi.yaml).")
        }
    }
}

/// A JSON error answer sent from the channel pipeline, outside any route, after which the
/// connection is closed: its remaining bytes cannot be trusted or waited for.
enum ClosingAnswer {
    static func send(status: HTTPResponse.Status, code: String, message: String, context: ChannelHandlerContext) {
        let body = (try? WireCoding.encoder().encode(ErrorResponse(code: code, message: message))) ?? Data()
        var head = HTTPResponse(status: status)
        head.headerFields[.contentType] = "application/json"
        head.headerFields[.contentLength] = "\(body.count)"
        head.headerFields[.connection] = "close"
        context.write(NIOAny(HTTPResponsePart.head(head)), promise: nil)
        context.write(NIOAny(HTTPResponsePart.body(ByteBuffer(bytes: body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(NIOAny(HTTPResponsePart.end(nil))).whenComplete { _ in bound.value.close(promise: nil) }
    }
}
