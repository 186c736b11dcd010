import Foundation

/// Runs a check on an actor at a fixed interval until the check returns false or the watch is
/// released: how a ``ResultsObserver`` notices saves that no `didSave` in this process announces.
final class HistoryWatch: @unchecked Sendable {
    private var task: Task<Void, Never>?

    init(isolation: any Actor, interval: Duration, check: @escaping () -> Bool) {
        let check = CheckBox(check)
        task = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, await Self.run(check, on: isolation) else { return }
            }
        }
    }

    deinit {
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
