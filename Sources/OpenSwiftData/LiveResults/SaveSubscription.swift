import Foundation

/// Hears of the saves in one container that touch one entity, and of its batch deletes, and
/// reports each on the observer's actor: through `ModelContext.didSave`, which every context of
/// the process posts, and `didBatchDelete`.
final class SaveSubscription: @unchecked Sendable {
    /// Called on the isolation the subscription was made with (or the saving thread, without one).
    var onSave: (() -> Void)?
    private var tokens: [any NSObjectProtocol] = []

    init(container: ModelContainer, entityName: String, isolation: (any Actor)?) {
        let center = NotificationCenter.default
        tokens.append(center.addObserver(forName: ModelContext.didSave, object: nil, queue: nil) { [weak self, weak container] notification in
            guard let self, let container, let saver = notification.object as? ModelContext, saver.container === container,
                  Self.touches(entityName, notification.userInfo) else { return }
            report(isolation)
        })
        // A batch delete names no models, and its cascades may reach any entity.
        tokens.append(center.addObserver(forName: ModelContext.didBatchDelete, object: nil, queue: nil) { [weak self, weak container] notification in
            guard let self, let container, let deleter = notification.object as? ModelContext, deleter.container === container else { return }
            report(isolation)
        })
    }

    deinit {
        for token in tokens { NotificationCenter.default.removeObserver(token) }
    }

    private func report(_ isolation: (any Actor)?) {
        if let isolation {
            Task { await self.report(on: isolation) }
        } else {
            onSave?()
        }
    }

    private func report(on isolation: isolated any Actor) {
        onSave?()
    }

    private static func touches(_ entityName: String, _ userInfo: [AnyHashable: Any]?) -> Bool {
        let keys: [ModelContext.NotificationKey] = [.insertedIdentifiers, .updatedIdentifiers, .deletedIdentifiers]
        return keys.contains { key in
            (userInfo?[key.rawValue] as? [PersistentIdentifier])?.contains { $0.entityName == entityName } == true
        }
    }
}
