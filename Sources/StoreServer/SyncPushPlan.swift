import Foundation
import OpenSwiftData
import StoreWire

/// A push turned into one save of the served store, by the sync rules:
/// - an update changes only the properties it names, of the model as the server holds it now
///   (the last writer wins per property, in the server's commit order);
/// - an update of a model that is gone is skipped, and a delete of one that is gone is moot (a
///   delete wins over a concurrent update);
/// - a delete cascades as the schema's delete rules say, so models another client related to the
///   deleted one go with it, as they went on the client that deleted it;
/// - a reference to a model that is gone is dropped, and a model whose cascading owner is gone
///   is deleted (an update) or not inserted (an insert), as the owner's deletion would have done.
struct SyncPushPlan {
    let request: DataStoreSaveChangesRequest<DefaultSnapshot>
    /// Per insert, its temporary identifier in `request`; nil when it is not inserted.
    private let temporaries: [PersistentIdentifier?]
    private let skippedUpdates: [Int]

    init(_ push: SyncPushRequest, served: ServedStore, author: String) throws {
        for entity in Set(push.inserts.map(\.entity) + push.updates.map(\.model.entity) + push.deletes.map(\.entity)) {
            _ = try served.syncInfo(entity)
        }
        let updated = try push.updates.map { try Self.existing($0.model, served) }
        let deletedNow = try push.deletes.map { try Self.existing($0, served) }
        var referenced = Set(updated + deletedNow)
        for values in push.inserts.map(\.values) + push.updates.map(\.values) {
            for case .some(let reference) in values.references where reference.new == nil {
                referenced.insert(try Self.existing(reference, served))
            }
        }
        var current = try served.currentSnapshots(referenced)
        var deleted = try Self.cascade(from: deletedNow.filter { current[$0] != nil }, current: &current, served: served)
        var temporaries = push.inserts.map { PersistentIdentifier.temporary(entityName: $0.entity) as PersistentIdentifier? }

        // Inserts and updates whose cascading owner is gone go with it; that can make more owners
        // gone (an insert that others of the push belong to), so repeat until nothing changes.
        var droppedUpdates: Set<Int> = []
        var changed = true
        while changed {
            changed = false
            let gone = { (reference: SyncReference) -> Bool in
                if let index = reference.new { return !push.inserts.indices.contains(index) || temporaries[index] == nil }
                guard let key = reference.key else { return true }
                let identifier = served.identifier(reference.entity, key)
                return current[identifier] == nil || deleted[identifier] != nil
            }
            for (index, insert) in push.inserts.enumerated() where temporaries[index] != nil && insert.values.losesCascadingOwner(gone) {
                temporaries[index] = nil
                changed = true
            }
            for (index, update) in push.updates.enumerated() where !droppedUpdates.contains(index) {
                guard current[updated[index]] != nil, deleted[updated[index]] == nil, update.values.losesCascadingOwner(gone) else { continue }
                droppedUpdates.insert(index)
                let more = try Self.cascade(from: [updated[index]], current: &current, served: served, excluding: deleted)
                deleted.merge(more) { first, _ in first }
                changed = true
            }
        }

        let resolve = { (reference: SyncReference) -> PersistentIdentifier? in
            if let index = reference.new { return push.inserts.indices.contains(index) ? temporaries[index] : nil }
            guard let key = reference.key else { return nil }
            let identifier = served.identifier(reference.entity, key)
            return current[identifier] != nil && deleted[identifier] == nil ? identifier : nil
        }
        var inserted: [DefaultSnapshot] = []
        for (index, insert) in push.inserts.enumerated() {
            guard let temporary = temporaries[index] else { continue }
            inserted.append(try insert.values.snapshot(temporary, over: nil, resolve: resolve))
        }
        var updates: [DefaultSnapshot] = []
        var skipped: [Int] = []
        for (index, update) in push.updates.enumerated() {
            guard let snapshot = current[updated[index]], deleted[updated[index]] == nil, !droppedUpdates.contains(index) else {
                skipped.append(index)
                continue
            }
            updates.append(try update.values.snapshot(updated[index], over: snapshot, resolve: resolve))
        }
        request = DataStoreSaveChangesRequest(inserted: inserted, updated: updates, deleted: Array(deleted.values),
                                              editingState: EditingState(author: author))
        self.temporaries = temporaries
        skippedUpdates = skipped
    }

    /// The answer once the save ran: each insert's permanent key, by the store's remapping.
    func response(_ result: DataStoreSaveChangesResult<DefaultSnapshot>) -> SyncPushResponse {
        let keys = temporaries.map { temporary in
            temporary.flatMap { result.remappedIdentifiers[$0] }.map { SyncKey($0.primaryKey) }
        }
        let token = (result.historyToken as? DefaultHistoryToken)?.transactionIdentifier
        return SyncPushResponse(keys: keys, skippedUpdates: skippedUpdates, token: token)
    }

    /// The identifier of a model the server stores, named by key.
    private static func existing(_ reference: SyncReference, _ served: ServedStore) throws -> PersistentIdentifier {
        guard let key = reference.key, reference.new == nil else {
            throw StoreServerError(.invalidRequest, "An update or delete names \(reference.entity) by 'new'; name a stored model by its 'key'.")
        }
        _ = try served.syncInfo(reference.entity)
        return served.identifier(reference.entity, key)
    }

    /// `roots` and every model their cascading relationships reach, with their current snapshots.
    private static func cascade(from roots: [PersistentIdentifier], current: inout [PersistentIdentifier: DefaultSnapshot],
                                served: ServedStore, excluding done: [PersistentIdentifier: DefaultSnapshot] = [:]) throws -> [PersistentIdentifier: DefaultSnapshot] {
        var deleted: [PersistentIdentifier: DefaultSnapshot] = [:]
        var level = roots.filter { done[$0] == nil }
        while !level.isEmpty {
            var next: Set<PersistentIdentifier> = []
            for identifier in level {
                guard deleted[identifier] == nil, let snapshot = current[identifier] else { continue }
                deleted[identifier] = snapshot
                let info = try served.syncInfo(identifier.entityName)
                for rule in info.relationshipRules.values where rule.deleteRule == .cascade {
                    let related = snapshot.values.value(of: info.properties[rule.slot], in: info).map { relatedIdentifiers($0.value) } ?? []
                    next.formUnion(related.filter { deleted[$0] == nil && done[$0] == nil })
                }
            }
            let missing = next.filter { current[$0] == nil }
            current.merge(try served.currentSnapshots(missing)) { first, _ in first }
            level = Array(next)
        }
        return deleted
    }

    private static func relatedIdentifiers(_ value: Any) -> [PersistentIdentifier] {
        guard let present = unwrapOptional(value) else { return [] }
        if let identifier = present as? PersistentIdentifier { return [identifier] }
        return present as? [PersistentIdentifier] ?? []
    }
}

extension SyncValues {
    /// Every reference the values hold.
    var references: [SyncReference?] {
        values.flatMap { _, value -> [SyncReference?] in
            switch value {
            case .toOne(let reference): [reference]
            case .toMany(let references): references
            case .attribute: []
            }
        }
    }

    /// Whether a to-one relationship names a gone model whose inverse cascades: the owner's
    /// deletion would have deleted this model.
    func losesCascadingOwner(_ gone: (SyncReference) -> Bool) -> Bool {
        values.contains { property, value in
            guard case .toOne(let reference?) = value, gone(reference),
                  let inverse = info.relationshipRule(at: property.index)?.inverse else { return false }
            return inverse.info.relationshipRule(at: inverse.slot)?.deleteRule == .cascade
        }
    }

    /// A snapshot under `identifier`: these values over `base` (an update, which then changes
    /// only these properties) or alone (an insert, which must name every attribute without a
    /// default). A to-many it does not name is left to its inverse. References to gone models
    /// are left out.
    func snapshot(_ identifier: PersistentIdentifier, over base: DefaultSnapshot?,
                  resolve: (SyncReference) -> PersistentIdentifier?) throws -> DefaultSnapshot {
        // A to-many the push does not name stays unread (nil), in an update as in an insert: the
        // side the client sent (the inverse, or the pair's other side) writes the pairs, and this
        // side's stored list written back would undo them, or not, by the store's write order.
        var slots: [Any?] = info.properties.map { property in
            if case .toMany = property.shape { return nil }
            return base?.values.value(of: property, in: info)?.value
        }
        var changed = ChangedSlots()
        for (property, value) in values {
            changed.insert(property.index)
            switch value {
            case .attribute(let attribute):
                slots[property.index] = attribute
            case .toOne(let reference):
                slots[property.index] = reference.flatMap(resolve) as Any
            case .toMany(let references):
                let identifiers = references.compactMap(resolve)
                slots[property.index] = (property.isOptional && references.isEmpty ? nil : identifiers) as [PersistentIdentifier]? as Any
            }
        }
        if base == nil {
            for property in info.properties where slots[property.index] == nil {
                switch property.shape {
                case .toMany: continue
                case .toOne: slots[property.index] = PersistentIdentifier?.none as Any
                case .attribute:
                    if let optional = property.valueType as? any AnyOptional.Type {
                        slots[property.index] = optional.nilValue
                    } else if let defaultValue = property.defaultValue {
                        slots[property.index] = defaultValue
                    } else {
                        throw StoreServerError(.invalidRequest, "An insert of \(info.entityName) has no value for '\(property.name)', which is not optional and has no default; send every property of an inserted model.")
                    }
                }
            }
        }
        return DefaultSnapshot(persistentIdentifier: identifier, values: SnapshotValues(info: info, slots: slots),
                               changedSlots: base == nil ? nil : changed)
    }
}
