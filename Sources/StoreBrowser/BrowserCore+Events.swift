import Foundation
import HTTPTypes
import NIOCore

/// The live updates: server-sent events from the server's history stream, one `change` event
/// per new transaction, which the page's script answers by reloading what it shows.
extension BrowserCore {
    func events() -> StoreBrowserResponse {
        let changes = server.changes()
        let stream = AsyncStream<ByteBuffer> { continuation in
            // Pages wait two seconds before connecting again.
            continuation.yield(ByteBuffer(string: "retry: 2000\n\n"))
            let relay = Task {
                for await change in changes {
                    switch change {
                    case .latest(let number): continuation.yield(ByteBuffer(string: "event: change\ndata: \(number ?? 0)\n\n"))
                    case .keepAlive: continuation.yield(ByteBuffer(string: ": keep-alive\n\n"))
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
        return StoreBrowserResponse(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: .stream(stream))
    }
}
