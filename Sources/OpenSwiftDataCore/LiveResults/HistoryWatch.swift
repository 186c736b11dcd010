import Foundation

/// Runs a check on an actor until the check returns false or the watch is released: at a fixed
/// interval, and at once whenever a store of the container announces new history
/// (``HistoryAnnouncing``). How a ``ResultsObserver`` or a ``HistoryObserver`` notices saves that
/// no `didSave` in this process announces.
final class HistoryWatch: @unchecked Sendable {
    /// The interval without an announcing store, and with one (its announcements come first).
    static let pollInterval: Duration = .milliseconds(500)
    static let announcedPollInterval: Duration = .seconds(5)

    private var task: Task<Void, Never>?
    private var ticker: Task<Void, Never>?
    private var announcements: [AnyObject] = []

    init(container: ModelContainer, isolation: any Actor, check: @escaping () -> Bool) {
        let check = CheckBox(check)
        let announcers = container.historyAnnouncers
        let interval = announcers.isEmpty ? Self.pollInterval : Self.announcedPollInterval
        // Wake-ups coalesce: a check reads every transaction since the last one.
        let (wakeUps, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        announcements = announcers.map { $0.announceHistory { wake.yield() } }
        ticker = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                wake.yield()
            }
        }
        task = Task {
            for await _ in wakeUps {
                guard !Task.isCancelled, await Self.run(check, on: isolation) else { return }
            }
        }
    }

    deinit {
        announcements = []
        ticker?.cancel()
        task?.cancel()
    }

    private static func run(_ check: CheckBox, on isolation: isolated any Actor) -> Bool {
        check.body()
    }

    /// The check only ever runs on the watch's actor, where it was made.
    private final class CheckBox: @unchecked Sendable {
        let body: () -> Bool
        init(_ body: @escaping () -> Bool) { self.body = body }
    }
}
