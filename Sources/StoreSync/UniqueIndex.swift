import Foundation
import SwiftData

/// The models this client inserted and has not pushed, by their `#Unique` values: a pulled
/// model with the same values is the same model (the server merged, or will merge, the two
/// inserts into one), so it is mapped to the local one instead of inserted beside it.
struct UniqueIndex {
    private var byKey: [String: (model: any PersistentModel, change: PendingChange)] = [:]
    private let encoder = JSONEncoder()

    init() {}

    init(entries: [(entity: SyncEntity, model: any PersistentModel, change: PendingChange)]) {
        for entry in entries {
            for key in keys(entry.entity, { name in
                guard let property = entry.entity.byName[name], case .attribute(let access) = property.access else { return nil }
                return access.value(of: entry.model)
            }) {
                byKey[key] = (entry.model, entry.change)
            }
        }
    }

    /// The unpushed local model with a row's `#Unique` values, taken out of the index.
    mutating func take(entity: SyncEntity, row: SyncRow) -> (any PersistentModel, PendingChange)? {
        guard !byKey.isEmpty else { return nil }
        for key in keys(entity, { name in
            if case .attribute(let value)? = row.values[name] { return value }
            return nil
        }) {
            if let found = byKey[key] {
                byKey = byKey.filter { $0.value.model.persistentModelID != found.model.persistentModelID }
                return found
            }
        }
        return nil
    }

    /// One key per constraint: the entity, the constraint's names and the values' JSON.
    private func keys(_ entity: SyncEntity, _ value: (String) -> Any?) -> [String] {
        entity.uniquenessConstraints.compactMap { names in
            var key = entity.name
            for name in names {
                guard let present = value(name), let encodable = present as? any Encodable,
                      let data = try? encoder.encode(encodable) else { return nil }
                key += "|\(name)=" + String(decoding: data, as: UTF8.self)
            }
            return key
        }
    }
}

extension SyncWorker {
    /// The index of the unpushed inserts of entities with `#Unique` constraints.
    func uniqueIndex(in context: ModelContext) throws -> UniqueIndex {
        let constrained = schema.entities.values.filter { !$0.uniquenessConstraints.isEmpty }
        guard !constrained.isEmpty else { return UniqueIndex() }
        let inserts = try state.pendingInserts(of: constrained.map(\.name))
        guard !inserts.isEmpty else { return UniqueIndex() }
        let mapped = try state.servers(of: inserts.map(\.local))
        let unpushed = inserts.filter { mapped[$0.local] == nil }
        let present = try models(unpushed.map(\.local), in: context)
        return UniqueIndex(entries: unpushed.compactMap { change in
            guard let model = present[change.local], let entity = schema[change.entity] else { return nil }
            return (entity, model, change)
        })
    }
}
