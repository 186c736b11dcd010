import Foundation
import OpenSwiftDataCore
import PostgresNIO

/// Records one save (or batch delete) as one history transaction, at the end of its own
/// transaction: one change per model, inserts in the request's order, then updates, then deletes.
struct PostgresHistoryWriter {
    let pool: PostgresConnectionPool
    let connection: PostgresConnection

    /// A model's change, by entity name and key.
    struct Change {
        var kind: PostgresHistory.Kind
        var entityName: String
        var key: Int64
        /// An update's changed properties.
        var attributes: [String] = []
    }

    /// A deleted model's `.preserveValueOnDeletion` values, as the columns' text.
    struct Tombstone {
        var entityName: String
        var key: Int64
        var values: [(property: String, text: String)]
    }

    /// The changes of a save: an insert merged into a stored model on a uniqueness constraint
    /// (`isNew` false) is that model's update, naming every property.
    static func changes(of request: DataStoreSaveChangesRequest<DefaultSnapshot>, inserts: [(key: Int64, isNew: Bool)],
                        deletedKeys: [(String, Int64)], store: PostgresStore) throws -> [Change] {
        var seen = Set<String>()
        var changes: [Change] = []
        func add(_ change: Change) {
            if seen.insert("\(change.entityName)#\(change.key)").inserted { changes.append(change) }
        }
        for (snapshot, insert) in zip(request.inserted, inserts) {
            let entityName = snapshot.persistentIdentifier.entityName
            add(insert.isNew ? Change(kind: .insert, entityName: entityName, key: insert.key)
                : Change(kind: .update, entityName: entityName, key: insert.key, attributes: try store.layout(entityName).info.properties.map(\.name)))
        }
        for snapshot in request.updated {
            let identifier = snapshot.persistentIdentifier
            guard let key = store.key(of: identifier) else { continue }
            let names = try store.layout(identifier.entityName).info.changedPropertyNames(snapshot.changedSlots)
            add(Change(kind: .update, entityName: identifier.entityName, key: key, attributes: names))
        }
        for (entityName, key) in deletedKeys { add(Change(kind: .delete, entityName: entityName, key: key)) }
        return changes
    }

    /// Writes the transaction and answers its number. The number is taken under an advisory lock
    /// held until the surrounding transaction ends, so numbers become visible in order.
    func record(author: String?, changes: [Change], tombstones: [Tombstone]) throws -> Int64 {
        if let author, PostgresValueCoding.holdsNUL(author) {
            throw PostgresStoreError(.invalidValue, "The context's author holds NUL (U+0000), which PostgreSQL's text cannot hold; set an author without it. Nothing was saved.")
        }
        _ = try pool.run("SELECT pg_advisory_xact_lock(\(PostgresHistory.numberingLock))", on: connection)
        let process = DefaultHistoryTransaction.currentProcess
        var binds = PostgresBindings()
        binds.append(Date().timeIntervalSinceReferenceDate)
        binds.append(author)
        binds.append(process.bundleIdentifier)
        binds.append(process.processIdentifier)
        // The notification goes out when the transaction commits, to every listening process.
        let rows = try pool.run("""
            WITH t AS (INSERT INTO \(PostgresHistory.transactions) ("timestamp", "author", "bundle", "process") VALUES ($1, $2, $3, $4) RETURNING "Z_PK")
            SELECT "Z_PK", pg_notify('\(PostgresHistory.channel)', "Z_PK"::text) FROM t
            """, binds, on: connection)
        let number = try PostgresRandomAccessRow(rows[0])[0].decode(Int64.self)
        if !changes.isEmpty {
            var binds = PostgresBindings()
            binds.append(number)
            binds.append(changes.map { Int64($0.kind.rawValue) })
            binds.append(changes.map(\.entityName))
            binds.append(changes.map(\.key))
            binds.append(changes.map { $0.attributes.joined(separator: ",") })
            // One statement for the whole save; WITH ORDINALITY keeps the change numbers in order.
            _ = try pool.run("""
                INSERT INTO \(PostgresHistory.changes) ("transactionNumber", "kind", "entity", "key", "attributes")
                SELECT $1, u.kind, u.entity, u.key, u.attributes FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[]) WITH ORDINALITY AS u(kind, entity, key, attributes, n) ORDER BY u.n
                """, binds, on: connection)
        }
        let values = tombstones.flatMap { tombstone in tombstone.values.map { (tombstone.entityName, tombstone.key, $0.property, $0.text) } }
        if !values.isEmpty {
            var binds = PostgresBindings()
            binds.append(number)
            binds.append(values.map(\.0))
            binds.append(values.map(\.1))
            binds.append(values.map(\.2))
            binds.append(values.map(\.3))
            _ = try pool.run("""
                INSERT INTO \(PostgresHistory.tombstones) ("change", "property", "value")
                SELECT c."Z_PK", u.property, u.value FROM unnest($2::text[], $3::bigint[], $4::text[], $5::text[]) AS u(entity, key, property, value)
                JOIN \(PostgresHistory.changes) AS c ON c."transactionNumber" = $1 AND c."kind" = \(PostgresHistory.Kind.delete.rawValue) AND c."entity" = u.entity AND c."key" = u.key
                """, binds, on: connection)
        }
        return number
    }
}

extension PostgresHistoryWriter.Tombstone {
    /// The tombstones of the rows a `DELETE … RETURNING` ``PostgresEntityLayout/deletionReturning``
    /// answered; a nil value is left out, as a tombstone without it reads nil.
    static func all(deleted rows: [PostgresRow], layout: PostgresEntityLayout) throws -> [Self] {
        let preserved = layout.preservedColumns
        return try rows.map { row in
            let cells = PostgresRandomAccessRow(row)
            var values: [(property: String, text: String)] = []
            for (offset, column) in preserved.enumerated() {
                if let text = try cells[offset + 1].decode(String?.self) { values.append((column.name, text)) }
            }
            // A hierarchy's rows name their own entity: a delete including subclasses takes theirs.
            let entityName = layout.hierarchy == nil ? layout.entityName : try cells[preserved.count + 1].decode(String.self)
            return Self(entityName: entityName, key: try cells[0].decode(Int64.self), values: values)
        }
    }
}

extension PostgresEntityLayout {
    /// The attribute columns whose values a deleted model's history keeps.
    var preservedColumns: [PostgresColumn] {
        let preserved = Set(info.preservedOnDeletion.map(\.name))
        return attributeColumns.filter { preserved.contains($0.name) }
    }

    /// What a delete returns for its history: each row's key, then its preserved values as text,
    /// then for a hierarchy's table the row's entity.
    var deletionReturning: String {
        let entity = hierarchy == nil ? [] : [PostgresSQL.quote(PostgresSQL.entityColumn)]
        return ([PostgresSQL.quote(PostgresSQL.primaryKey)] + preservedColumns.map { "\(PostgresSQL.quote($0.name))::text" } + entity).joined(separator: ", ")
    }
}
