import Foundation
import Synchronization
import SwiftData

/// Continuous sync: a round after each local save, after each change the server's events
/// stream announces, and after saves made outside this process (seen on a poll of the local
/// history); after a failed round it waits, doubling the wait up to a bound, and tries again.
final class ContinuousSync: Sendable {
    private enum Trigger: Sendable {
        case change
        case poll
    }

    private let triggers: AsyncStream<Trigger>.Continuation
    private let loop: Task<Void, Never>
    private let poller: Task<Void, Never>
    /// NotificationCenter's observer token, which is only ever handed back to it.
    private struct Observer: @unchecked Sendable {
        let token: any NSObjectProtocol
    }

    /// The events stream while it is connected.
    private final class Connection: Sendable {
        let stream = Mutex<EventStream?>(nil)
    }

    private let observer: Observer
    private let events = Connection()

    init(worker: SyncWorker, container: ModelContainer, configuration: SyncConfiguration, status: SyncStatus) {
        let (stream, triggers) = AsyncStream<Trigger>.makeStream(bufferingPolicy: .bufferingNewest(2))
        self.triggers = triggers
        let author = configuration.author
        let token = NotificationCenter.default.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) { note in
            guard let context = note.object as? ModelContext, context.container == container, context.author != author else { return }
            triggers.yield(.change)
        }
        observer = Observer(token: token)
        let events = events
        let request = worker.transport.request(SyncPath.events)
        let connect: @Sendable () -> Void = {
            events.stream.withLock { current in
                guard current == nil else { return }
                current = EventStream(request: request, onEvent: { triggers.yield(.change) }, onEnd: {
                    events.stream.withLock { $0 = nil }
                })
            }
        }
        poller = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: configuration.pollInterval)
                triggers.yield(.poll)
            }
        }
        loop = Task {
            var delay = configuration.initialRetryDelay
            triggers.yield(.change)
            for await trigger in stream {
                if Task.isCancelled { break }
                connect()
                if trigger == .poll {
                    let listening = events.stream.withLock { $0 != nil }
                    let unread = (try? await worker.hasUnreadLocalChanges()) ?? true
                    if listening && !unread { continue }
                }
                do {
                    try await worker.round()
                    delay = configuration.initialRetryDelay
                } catch is CancellationError {
                    break
                } catch {
                    let jittered = delay * Double.random(in: 0.8...1.2)
                    status.update { $0.phase = .waitingToRetry(until: Date().addingTimeInterval(jittered.seconds)) }
                    try? await Task.sleep(for: jittered)
                    if Task.isCancelled { break }
                    status.update { $0.phase = .idle }
                    delay = min(delay * 2, configuration.maximumRetryDelay)
                    triggers.yield(.change)
                }
            }
        }
    }

    /// Stops listening and polling, and returns once the round under way (if any) ended.
    func stop() async {
        NotificationCenter.default.removeObserver(observer.token)
        events.stream.withLock { $0?.cancel() }
        poller.cancel()
        loop.cancel()
        triggers.finish()
        await loop.value
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
