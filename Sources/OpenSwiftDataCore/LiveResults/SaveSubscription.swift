import Foundation

/// Hears of the saves in one container that touch one entity, and of its batch deletes, and
/// reports each on the observer's actor: through `ModelContext.didSave`, which every context of
/// the process posts, and `didBatchDelete`. A save is reported with the history tokens it
/// recorded, so that a history watch can tell the container's own transactions from others'.
final class SaveSubscription: @unchecked Sendable {
    /// Called on the isolation the subscription was made with (or the saving thread, without
    /// one), with the save's history tokens.
    var onSave: (([DefaultHistoryToken]) -> Void)?
    /// Called on the saving thread as a save of the container begins (`willSave`).
    var onWillSave: (() -> Void)?
    private var tokens: [any NSObjectProtocol] = []

    /// `entityNames` nil hears of every save of the container.
    init(container: ModelContainer, entityNames: Set<String>?, isolation: (any Actor)?) {
        let center = NotificationCenter.default
        tokens.append(center.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) { [weak self, weak container] notification in
            guard let self, let container, let saver = notification.object as? ModelContext, saver.container === container,
                  Self.touches(entityNames, notification.userInfo) else { return }
            report(Self.historyTokens(notification.userInfo), isolation)
        })
        tokens.append(center.addObserver(forName: ModelContext.willSave, object: nil, queue: nil) { [weak self, weak container] notification in
            guard let self, let container, let saver = notification.object as? ModelContext, saver.container === container else { return }
            onWillSave?()
        })
        // A batch delete names no models, and its cascades may reach any entity.
        tokens.append(center.addObserver(forName: ModelContext.didBatchDelete, object: nil, queue: nil) { [weak self, weak container] notification in
            guard let self, let container, let deleter = notification.object as? ModelContext, deleter.container === container else { return }
            report([], isolation)
        })
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    private func report(_ historyTokens: [DefaultHistoryToken], _ isolation: (any Actor)?) {
        if let isolation {
            Task { await self.report(historyTokens, on: isolation) }
        } else {
            onSave?(historyTokens)
        }
    }

    private func report(_ historyTokens: [DefaultHistoryToken], on isolation: isolated any Actor) {
        onSave?(historyTokens)
    }

    private static func touches(_ entityNames: Set<String>?, _ userInfo: [AnyHashable: Any]?) -> Bool {
        guard let entityNames else { return true }
        let keys: [ModelContext.NotificationKey] = [.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers]
        return keys.contains { key in
            (userInfo?[key.rawValue] as? [PersistentIdentifier])?.contains { entityNames.contains($0.entityName) } == true
        }
    }

    /// The `historyTokens` of a `didSave`: one token, or several by store identifier.
    static func historyTokens(_ userInfo: [AnyHashable: Any]?) -> [DefaultHistoryToken] {
        let value = userInfo?[ModelContext.NotificationKey.historyTokens.rawValue]
        if let token = value as? DefaultHistoryToken { return [token] }
        if let tokens = value as? [String: any HistoryToken] { return tokens.values.compactMap { $0 as? DefaultHistoryToken } }
        return []
    }
}
