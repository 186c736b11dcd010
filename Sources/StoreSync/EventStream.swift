import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The server's `history/events` stream (server-sent events), read through a `URLSession`
/// delegate: `onEvent` runs for each announced transaction, `onEnd` once the stream ends.
final class EventStream: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let onEvent: @Sendable () -> Void
    private let onEnd: @Sendable () -> Void
    private let lock = NSLock()
    private var buffer = Data()
    private var session: URLSession?

    init(request: URLRequest, onEvent: @escaping @Sendable () -> Void, onEnd: @escaping @Sendable () -> Void) {
        self.onEvent = onEvent
        self.onEnd = onEnd
        super.init()
        var request = request
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        // The server sends a comment every 15 s, so a silent minute means the connection is gone.
        request.timeoutInterval = 60
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 60
        let session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
        lock.withLock { self.session = session }
        session.dataTask(with: request).resume()
    }

    func cancel() {
        lock.withLock { session }?.invalidateAndCancel()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let ok = (response as? HTTPURLResponse)?.statusCode == 200
        completionHandler(ok ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let events = lock.withLock { () -> Int in
            buffer.append(data)
            var count = 0
            let separator = Data("\n\n".utf8)
            while let range = buffer.range(of: separator) {
                let block = String(decoding: buffer[buffer.startIndex..<range.lowerBound], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex..<range.upperBound)
                if block.split(separator: "\n").contains("event: history") { count += 1 }
            }
            return count
        }
        if events > 0 { onEvent() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        session.finishTasksAndInvalidate()
        onEnd()
    }
}
