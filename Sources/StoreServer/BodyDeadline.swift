import Foundation
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Gives each request's body a deadline: a client that sends its headers and then trickles the
/// body (a byte every few seconds keeps the connection from ever being idle) gets 408 once the
/// server's ``StoreServerConfiguration/bodyTimeLimit`` has passed since the headers, and the
/// connection is closed, so it cannot hold a connection, or the request's task, for ever.
final class BodyDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let limit: TimeAmount
    private var deadline: Scheduled<Void>?
    /// Whether the request's response has begun: then a 408 cannot be sent, only the connection closed.
    private var responded = false

    init(limit: TimeAmount) {
        self.limit = limit
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            responded = false
            deadline?.cancel()
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: limit) { bound.value.0.expire(context: bound.value.1) }
        case .end:
            deadline?.cancel()
            deadline = nil
        case .body:
            break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .head = unwrapOutboundIn(data) { responded = true }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    private func expire(context: ChannelHandlerContext) {
        deadline = nil
        guard !responded else { return context.close(promise: nil) }
        let seconds = String(format: "%g", Double(limit.nanoseconds) / 1e9)
        ClosingAnswer.send(status: .requestTimeout, code: StoreServerError.Code.timeout.rawValue,
                           message: "The request body did not arrive within the server's limit of \(seconds) s; send it whole and promptly.",
                           context: context)
    }
}
