import AsyncHTTPClient
import Foundation
import NIOCore
import StoreWire

/// Reads a server's `history/events` stream while any handler listens, and calls every handler
/// for each event. A dropped stream is opened again after a second; the first event of each
/// connection is announced too, since transactions may have come while it was down.
final class HistoryEventListener: @unchecked Sendable {
    private let url: String
    private let token: String
    private let lock = NSLock()
    private var handlers: [UUID: @Sendable () -> Void] = [:]
    private var task: Task<Void, Never>?

    init(_ configuration: RemoteStoreConfiguration) {
        var base = configuration.url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        url = base + StoreAPI.historyEvents
        token = configuration.token
    }

    deinit {
        task?.cancel()
    }

    /// Adds a handler until the returned object is released.
    func add(_ handler: @escaping @Sendable () -> Void) -> AnyObject {
        let id = UUID()
        lock.withLock {
            handlers[id] = handler
            if task == nil { task = Task { [weak self] in await self?.listen() } }
        }
        return Subscription { [weak self] in self?.remove(id) }
    }

    private func remove(_ id: UUID) {
        lock.withLock {
            handlers[id] = nil
            if handlers.isEmpty {
                task?.cancel()
                task = nil
            }
        }
    }

    private func announce() {
        for handler in lock.withLock({ Array(handlers.values) }) { handler() }
    }

    private func listen() async {
        while !Task.isCancelled {
            do {
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                request.headers.add(name: "Accept", value: "text/event-stream")
                let response = try await HTTPClient.shared.execute(request, deadline: .distantFuture)
                if response.status == .ok {
                    var pending = ""
                    for try await chunk in response.body {
                        pending += String(buffer: chunk)
                        while let end = pending.range(of: "\n\n") {
                            let event = pending[..<end.lowerBound]
                            pending.removeSubrange(..<end.upperBound)
                            if event.split(separator: "\n").contains("event: history") { announce() }
                        }
                    }
                }
            } catch {
                // Unreachable or dropped: try again below.
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Removes its handler when released.
    private final class Subscription {
        let cancel: () -> Void
        init(_ cancel: @escaping () -> Void) { self.cancel = cancel }
        deinit { cancel() }
    }
}
