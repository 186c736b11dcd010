import Foundation
import NIOCore
import NIOPosix

/// A loopback TCP proxy in front of a server that can lose the server's answers: a request whose
/// first line starts with ``dropsAnswersTo`` reaches the server, and the proxy then closes the
/// client's connection instead of passing the answer on, as a network failure after the server
/// answered would.
final class DroppingProxy: @unchecked Sendable {
    let port: Int
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let channel: any Channel
    private let rule = DropRule()

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(upstreamPort: Int) throws {
        let group = group
        let rule = rule
        channel = try ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { inbound in
                ClientBootstrap(group: group).connect(host: "127.0.0.1", port: upstreamPort).flatMap { outbound in
                    let decide: @Sendable (ByteBuffer) -> Bool = { rule.shouldDrop(String(buffer: $0)) }
                    let toServer = Relay(peer: outbound, inspect: decide)
                    let toClient = Relay(peer: inbound, inspect: nil)
                    toServer.answers = toClient
                    return inbound.pipeline.addHandler(toServer).flatMap { outbound.pipeline.addHandler(toClient) }
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        port = channel.localAddress?.port ?? 0
    }

    /// Loses the answers to the next `count` requests whose first line starts with `prefix`
    /// (`POST /v1/sync/push`).
    func drop(_ count: Int, answersTo prefix: String) {
        rule.set(count, prefix)
    }

    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// Which answers to lose.
    private final class DropRule: @unchecked Sendable {
        private let lock = NSLock()
        private var prefix: String?
        private var remaining = 0

        func set(_ count: Int, _ prefix: String) {
            lock.withLock {
                self.prefix = prefix
                remaining = count
            }
        }

        func shouldDrop(_ request: String) -> Bool {
            lock.withLock {
                guard let prefix, remaining > 0, request.hasPrefix(prefix) else { return false }
                remaining -= 1
                return true
            }
        }
    }

    /// Passes bytes to `peer`; the request side marks its answer side to close instead of
    /// answering when the request is one to drop.
    private final class Relay: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        let peer: any Channel
        let inspect: (@Sendable (ByteBuffer) -> Bool)?
        weak var answers: Relay?
        var dropsNext = false

        init(peer: any Channel, inspect: (@Sendable (ByteBuffer) -> Bool)?) {
            self.peer = peer
            self.inspect = inspect
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            if let inspect, inspect(buffer) { answers?.dropsNext = true }
            if dropsNext {
                peer.close(promise: nil)
                context.close(promise: nil)
                return
            }
            peer.writeAndFlush(buffer, promise: nil)
        }

        func channelInactive(context: ChannelHandlerContext) {
            peer.close(promise: nil)
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
