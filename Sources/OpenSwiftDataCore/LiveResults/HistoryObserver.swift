import Foundation
import Observation

/// Counts the history transactions that other containers and processes save in a container's
/// stores (remote changes), optionally only those of some model types or authors.
///
/// ```swift
/// let observer = try HistoryObserver(observedModels: [Trip.self], modelContainer: container)
/// withObservationTracking { _ = observer.eventCounter } onChange: { reloadTrips() }
/// ```
///
/// It reads the stores' history after its ``historyTokens`` (twice a second, or as soon as a
/// ``HistoryAnnouncing`` store such as `RemoteStore` hears of a transaction), on the actor that
/// made it, and adds one to ``eventCounter`` for each read that found matching transactions.
/// Saves by the container's own contexts are left out: their `didSave` announces them. It is
/// `Observable`. An observer made outside any actor reads the history on an actor of its own.
public final class HistoryObserver: Observable {
    /// The container whose stores the observer reads.
    public final let modelContainer: ModelContainer
    /// The model types whose changes count; every change counts when empty.
    public final let observedModels: [any PersistentModel.Type]
    /// The authors whose transactions count; every author's count when empty.
    public final let authors: Set<String>

    private let registrar = ObservationRegistrar()
    private let lock = NSLock()
    /// Held for a whole read, so that two reads never count the same transactions.
    private let reading = NSLock()
    private var counter = 0
    private var cursor: HistoryCursor
    private var savedHere = SavedTransactions()
    /// When a save of the container began whose `didSave` has not come yet: its transaction may
    /// be in the history before its token is in `savedHere`, so reads wait (at most 2 s, in case
    /// the save failed and no `didSave` comes).
    private var saveUnderWay: Date?
    private let context: ModelContext
    private let entityNames: Set<String>
    private var subscription: SaveSubscription?
    private var watch: HistoryWatch?

    /// How many times the observer found new matching transactions.
    public final var eventCounter: Int {
        registrar.access(self, keyPath: \.eventCounter)
        return lock.withLock { counter }
    }

    /// The observer's position in each store's history, by store identifier: the token of the
    /// last transaction it read.
    public final var historyTokens: [String: any HistoryToken] {
        lock.withLock { cursor.mark.map { [$0.storeIdentifier: $0] } ?? [:] }
    }

    /// Observes the history of `modelContainer` after `historyTokens` (by store identifier; nil
    /// starts after the newest transaction now). Throws when no store of the container keeps
    /// history, or a token is of a store that refuses it.
    public convenience init(historyTokens: [String: any HistoryToken]? = nil, observedModels: [any PersistentModel.Type] = [],
                            authors: Set<String> = [], modelContainer: ModelContainer,
                            isolation: isolated (any Actor)? = #isolation) throws {
        try self.init(tokens: historyTokens, observedModels: observedModels, authors: authors, modelContainer: modelContainer,
                      isolation: isolation ?? HistoryObserverActor())
    }

    init(tokens: [String: any HistoryToken]?, observedModels: [any PersistentModel.Type], authors: Set<String>,
         modelContainer: ModelContainer, isolation: any Actor) throws {
        self.modelContainer = modelContainer
        self.observedModels = observedModels
        self.authors = authors
        context = ModelContext(modelContainer)
        entityNames = Set(observedModels.map { Schema.entityName(for: $0) })
        if let tokens {
            let mark = tokens.values.compactMap { $0 as? DefaultHistoryToken }.max()
            cursor = HistoryCursor(mark: mark)
            // Checks the token now: one of another store, or expired, throws here.
            _ = try context.fetchHistory(HistoryCursor.descriptor(after: mark, limit: 1))
        } else {
            cursor = try HistoryCursor(context)
        }
        let subscription = SaveSubscription(container: modelContainer, entityNames: nil, isolation: isolation)
        subscription.onWillSave = { [weak self] in self?.lock.withLock { self?.saveUnderWay = Date() } }
        subscription.onSave = { [weak self] tokens in
            self?.lock.withLock {
                self?.savedHere.add(tokens)
                self?.saveUnderWay = nil
            }
        }
        self.subscription = subscription
        watch = HistoryWatch(container: modelContainer, isolation: isolation) { [weak self] in
            self?.readHistory() ?? false
        }
    }

    /// Reads the transactions after the cursor; answers whether to go on.
    func readHistory() -> Bool {
        reading.lock()
        defer { reading.unlock() }
        if let since = lock.withLock({ saveUnderWay }), Date().timeIntervalSince(since) < 2 { return true }
        do {
            var cursor = lock.withLock { self.cursor }
            let transactions = try cursor.next(context)
            let found = lock.withLock { () -> Bool in
                let found = transactions.contains(where: counts)
                self.cursor = cursor
                savedHere.forget(through: cursor.mark)
                return found
            }
            if found {
                registrar.withMutation(of: self, keyPath: \.eventCounter) { lock.withLock { counter += 1 } }
            }
        } catch let error as SwiftDataError where error == .historyTokenExpired {
            // Transactions not read yet were deleted: count that as a change.
            lock.withLock { cursor.restart(context) }
            registrar.withMutation(of: self, keyPath: \.eventCounter) { lock.withLock { counter += 1 } }
        } catch {
            ModelContainer.logger.error("HistoryObserver could not read the store's history: \(error)")
        }
        return true
    }

    /// Whether a transaction counts: not saved here, by an observed author, changing an observed model.
    private func counts(_ transaction: DefaultHistoryTransaction) -> Bool {
        guard !savedHere.contains(transaction.token) else { return false }
        if !authors.isEmpty && !authors.contains(transaction.author ?? "") { return false }
        return entityNames.isEmpty || transaction.changes.contains { entityNames.contains($0.changedPersistentIdentifier.entityName) }
    }
}

/// Where an observer made outside any actor reads the history.
private actor HistoryObserverActor {}
