/// The history tokens of the transactions a container's own contexts saved, as their `didSave`
/// reported them: a history watch skips those transactions, which `didSave` brought already.
struct SavedTransactions {
    private var tokens: Set<DefaultHistoryToken> = []

    mutating func add(_ saved: [DefaultHistoryToken]) {
        tokens.formUnion(saved)
    }

    /// Whether the transaction was saved here.
    func contains(_ token: DefaultHistoryToken) -> Bool {
        tokens.contains(token)
    }

    /// Forgets the tokens at or before `mark` in its store: the watch has read past them.
    mutating func forget(through mark: DefaultHistoryToken?) {
        guard let mark else { return }
        tokens = tokens.filter { $0.storeIdentifier != mark.storeIdentifier || $0 > mark }
    }
}
