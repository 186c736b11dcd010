import Foundation

/// Saves by other containers and processes on the same store reach an observer through the
/// store's history: on its actor, it reads the transactions after the last one it saw (see
/// ``HistoryWatch`` for when), and fetches again when one it did not save itself touches its
/// entity. Saves of its own container's contexts arrive at once through `didSave` instead,
/// which names their tokens, so they are skipped here.
extension ResultsObserver {
    /// A watch over the container's history, or nil when no store of it keeps history.
    func watchHistory(on isolation: any Actor) -> HistoryWatch? {
        guard var cursor = try? HistoryCursor(modelContext) else { return nil }
        let entityName = Schema.entityName(for: Element.self)
        return HistoryWatch(container: modelContext.container, isolation: isolation) { [weak self] in
            guard let self else { return false }
            do {
                let transactions = try cursor.next(modelContext)
                let touched = transactions.contains { transaction in
                    !savedHere.contains(transaction.token)
                        && transaction.changes.contains { $0.changedPersistentIdentifier.entityName == entityName }
                }
                savedHere.forget(through: cursor.mark)
                if touched { refetchAfterSave() }
            } catch let error as SwiftDataError where error == .historyTokenExpired {
                // History we had not read yet was deleted: what it held may have changed the results.
                cursor.restart(modelContext)
                refetchAfterSave()
            } catch {
                ModelContainer.logger.error("ResultsObserver<\(Element.self)> could not read the store's history: \(error)")
            }
            return true
        }
    }
}

/// A position in a container's history: the transactions after it, one read at a time.
struct HistoryCursor {
    /// The token of the last transaction read, nil before any.
    private(set) var mark: DefaultHistoryToken?

    /// A cursor at the newest transaction; throws when no store of the container keeps history.
    init(_ context: ModelContext) throws {
        mark = try Self.latest(context)
    }

    /// A cursor at `mark`.
    init(mark: DefaultHistoryToken?) {
        self.mark = mark
    }

    /// The transactions after the mark, oldest first; the mark moves to the last of them.
    mutating func next(_ context: ModelContext) throws -> [DefaultHistoryTransaction] {
        let transactions = try context.fetchHistory(Self.descriptor(after: mark))
        mark = transactions.map(\.token).max().map { max($0, mark ?? $0) } ?? mark
        return transactions
    }

    /// The transactions after `mark` (all of them for nil), oldest first, at most `limit` (0 for all).
    static func descriptor(after mark: DefaultHistoryToken?, limit: UInt64 = 0) -> HistoryDescriptor<DefaultHistoryTransaction> {
        var descriptor = mark.map { mark in HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > mark }) }
            ?? HistoryDescriptor<DefaultHistoryTransaction>()
        descriptor.fetchLimit = limit
        return descriptor
    }

    /// Moves the mark to the newest transaction, after the history it pointed into was deleted.
    mutating func restart(_ context: ModelContext) {
        mark = try? Self.latest(context)
    }

    /// The token of the store's newest transaction, nil for an empty history.
    private static func latest(_ context: ModelContext) throws -> DefaultHistoryToken? {
        var newest = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        newest.fetchLimit = 1
        return try context.fetchHistory(newest).first?.token
    }
}
