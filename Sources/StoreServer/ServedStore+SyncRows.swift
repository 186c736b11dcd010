import Foundation
import OpenSwiftData
import StoreWire

/// What the sync endpoints share: the schema-version check, the served history, and the current
/// snapshots of models named by key.
extension ServedStore {
    /// Refuses a client whose schema version is not the served one, naming both.
    func checkSchemaVersion(_ clientVersion: String) throws {
        let served = schemaRecord.version.description
        guard clientVersion == served else {
            throw StoreServerError(.conflict, "The server serves schema version \(served) and the client has version \(clientVersion); run the same schema version on both (migrate the server's store, or update the app).",
                                   status: .conflict, wireCode: WireErrorCode.schemaVersionMismatch)
        }
    }

    /// The served store's history, which sync needs, or a 404 naming the store.
    func syncHistory() throws -> any HistoryRecordReading {
        guard let history = store as? any HistoryRecordReading else {
            throw StoreServerError(.notFound, "The server's store (\(type(of: store))) keeps no history, which sync needs; serve the default store, PostgresStore, InMemoryStore or JSONStore.")
        }
        return history
    }

    /// The model type of a served entity, or a 404.
    func syncInfo(_ entity: String) throws -> ModelTypeInfo {
        _ = try schema.entity(named: entity)
        guard let type = EntityRegistry.modelType(named: entity) else {
            throw StoreServerError(.notFound, "The server has no model type for the entity \(entity).")
        }
        return ModelTypeInfo.of(type)
    }

    /// The identifier the served store gives a key of `entity`.
    func identifier(_ entity: String, _ key: SyncKey) -> PersistentIdentifier {
        PersistentIdentifier(entityName: entity, storeIdentifier: identifier, primaryKey: key.primaryKey)
    }

    /// The current snapshots of the models that still exist among `identifiers`, by identifier.
    /// Called within ``serialised(_:)``.
    func currentSnapshots(_ identifiers: some Sequence<PersistentIdentifier>) throws -> [PersistentIdentifier: DefaultSnapshot] {
        var found: [PersistentIdentifier: DefaultSnapshot] = [:]
        for (entity, members) in Dictionary(grouping: Set(identifiers), by: \.entityName) {
            var start = members.startIndex
            while start < members.endIndex {
                let chunk = members[start..<min(start + 500, members.endIndex)]
                for snapshot in try snapshots(of: Array(chunk), entity: entity) where snapshot.persistentIdentifier.entityName == entity {
                    found[snapshot.persistentIdentifier] = snapshot
                }
                start = chunk.endIndex
            }
        }
        return found
    }

    private func snapshots(of identifiers: [PersistentIdentifier], entity: String) throws -> [DefaultSnapshot] {
        let filter = QueryExpression.in(.identifier, identifiers.map { .identifier($0) }, type: QueryValueType(.identifier))
        do {
            return try store.fetchSnapshots(DataStoreQuery(entityName: entity, filter: filter))
        } catch DataStoreError.preferInMemoryFilter {
            let wanted = Set(identifiers)
            return try store.fetchSnapshots(DataStoreQuery(entityName: entity)).filter { wanted.contains($0.persistentIdentifier) }
        }
    }
}
