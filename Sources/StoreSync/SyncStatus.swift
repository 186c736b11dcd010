import Foundation
import Observation
import Synchronization

/// What a ``SyncEngine`` is doing and how its last round went, observable (SwiftUI views that
/// read it update as it changes) and readable from any thread.
///
/// ```swift
/// Text(engine.status.pendingChanges == 0 ? "Up to date" : "\(engine.status.pendingChanges) to send")
/// ```
public final class SyncStatus: Observable, Sendable {
    /// What the engine is doing.
    public enum Phase: Sendable, Equatable {
        /// Nothing: between rounds, or never started.
        case idle
        /// Sending local changes.
        case pushing
        /// Receiving the server's changes.
        case pulling
        /// Waiting to try again after a failed round (continuous sync), until `Date`.
        case waitingToRetry(until: Date)
    }

    struct Values: Sendable {
        var phase: Phase = .idle
        var pendingChanges = 0
        var lastSuccessfulSync: Date?
        var lastError: SyncError?
    }

    private let registrar = ObservationRegistrar()
    private let values = Mutex(Values())

    init() {}

    /// What the engine is doing.
    public var phase: Phase {
        registrar.access(self, keyPath: \.phase)
        return values.withLock { $0.phase }
    }

    /// Local model changes saved and not yet pushed, as of the last round (or the last call to
    /// ``SyncEngine/refreshPendingChanges()``): models inserted, changed or deleted.
    public var pendingChanges: Int {
        registrar.access(self, keyPath: \.pendingChanges)
        return values.withLock { $0.pendingChanges }
    }

    /// When the last round finished without error.
    public var lastSuccessfulSync: Date? {
        registrar.access(self, keyPath: \.lastSuccessfulSync)
        return values.withLock { $0.lastSuccessfulSync }
    }

    /// Why the last round failed, or what a round that succeeded warns of (`.localHistoryExpired`:
    /// the engine compared the whole local store, as history it had not read was deleted); nil
    /// after a round that succeeded without a warning. A warning's ``SyncError/isRetryable`` is
    /// false, and there is nothing to retry.
    public var lastError: SyncError? {
        registrar.access(self, keyPath: \.lastError)
        return values.withLock { $0.lastError }
    }

    /// Changes the values, telling observers of each one that changed.
    func update(_ change: (inout Values) -> Void) {
        let (old, new) = values.withLock { values -> (Values, Values) in
            let old = values
            change(&values)
            return (old, values)
        }
        if old.phase != new.phase { registrar.withMutation(of: self, keyPath: \.phase) {} }
        if old.pendingChanges != new.pendingChanges { registrar.withMutation(of: self, keyPath: \.pendingChanges) {} }
        if old.lastSuccessfulSync != new.lastSuccessfulSync { registrar.withMutation(of: self, keyPath: \.lastSuccessfulSync) {} }
        if old.lastError != new.lastError { registrar.withMutation(of: self, keyPath: \.lastError) {} }
    }
}
