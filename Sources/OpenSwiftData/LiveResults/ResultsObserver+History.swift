import Foundation

/// Saves by other processes on the same store reach an observer through the
/// store's history: on its actor, it reads the transactions after the last one it saw, twice a
/// second, and fetches again when one made by another process touches its entity. Saves of this
/// process's contexts arrive at once through `didSave` instead, so they are skipped here.
extension ResultsObserver {
    static var historyPollInterval: Duration { .milliseconds(500) }

    /// A watch over the container's history, or nil when no store of it keeps history.
    func watchHistory(on isolation: any Actor) -> HistoryWatch? {
        var mark: DefaultHistoryToken?
        do {
            mark = try latestHistoryToken()
        } catch {
            return nil
        }
        let entityName = Schema.entityName(for: Element.self)
        return HistoryWatch(isolation: isolation, interval: Self.historyPollInterval) { [weak self] in
            guard let self else { return false }
            do {
                let transactions = try modelContext.fetchHistory(Self.transactions(after: mark))
                mark = transactions.map(\.token).max().map { max($0, mark ?? $0) } ?? mark
                let process = DefaultHistoryTransaction.currentProcess.processIdentifier
                if transactions.contains(where: { transaction in
                    transaction.processIdentifier != process
                        && transaction.changes.contains { $0.changedPersistentIdentifier.entityName == entityName }
                }) {
                    refetchAfterSave()
                }
            } catch let error as SwiftDataError where error == .historyTokenExpired {
                // History we had not read yet was deleted: what it held may have changed the results.
                mark = try? latestHistoryToken()
                refetchAfterSave()
            } catch {
                ModelContainer.logger.error("ResultsObserver<\(Element.self)> could not read the store's history: \(error)")
            }
            return true
        }
    }

    /// The token of the store's newest transaction, nil for an empty history; throws when no store
    /// of the container keeps history.
    private func latestHistoryToken() throws -> DefaultHistoryToken? {
        var newest = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.transactionIdentifier, order: .reverse)])
        newest.fetchLimit = 1
        return try modelContext.fetchHistory(newest).first?.token
    }

    private static func transactions(after mark: DefaultHistoryToken?) -> HistoryDescriptor<DefaultHistoryTransaction> {
        guard let mark else { return HistoryDescriptor() }
        return HistoryDescriptor(predicate: #Predicate { $0.token > mark })
    }
}
