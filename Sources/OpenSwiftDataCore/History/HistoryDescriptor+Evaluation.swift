import Foundation

extension HistoryDescriptor where TransactionType == DefaultHistoryTransaction {
    /// The order as transaction numbers give it, when the sort is by number (or token, or id)
    /// alone: `true` ascending (also when unsorted), `false` descending, `nil` for any other sort.
    package var ascendingByNumber: Bool? {
        let byNumber: Set<AnyKeyPath> = [\DefaultHistoryTransaction.transactionIdentifier, \DefaultHistoryTransaction.token, \DefaultHistoryTransaction.id]
        guard let first = sortBy.first else { return true }
        guard sortBy.allSatisfy({ $0.keyPath.map { byNumber.contains($0) } ?? false && $0.order == first.order }) else { return nil }
        return first.order == .forward
    }

    /// The limit as a count, or `nil` for none.
    package var limit: Int? {
        fetchLimit == 0 ? nil : Int(clamping: fetchLimit)
    }

    /// Whether a store that ran `filter` and sorted by number can also apply the limit itself.
    package func limitsInStore(_ filter: HistoryFilter) -> Bool {
        filter.isComplete && ascendingByNumber != nil
    }

    /// The transactions a store selected with `filter`, in ascending number order, finished in
    /// Swift: the rest of the predicate, the sort, then the limit.
    package func evaluated(_ transactions: [DefaultHistoryTransaction], filter: HistoryFilter) throws -> [DefaultHistoryTransaction] {
        var result = transactions
        if !filter.isComplete, let predicate {
            result = try result.filter { try predicate.evaluate($0) }
        }
        switch ascendingByNumber {
        case true?: break
        case false?: result.reverse()
        case nil: result.sort(using: sortBy)
        }
        if let limit, result.count > limit { result.removeSubrange(limit...) }
        return result
    }
}
