import OpenSwiftDataCore

/// The SQL a save writes one entity's rows with, and the order of a row's values, worked out once
/// per store instead of once per saved model (building the upsert text was much of an insert).
struct SQLiteEntityWrites {
    /// One uniqueness constraint as the save looks it up.
    struct UniqueConstraint {
        /// The positions of its properties in a row (``SQLiteEntityWrites/columnIndexes``); nil
        /// when it names a property without a column (a to-many), which then never matches.
        let positions: [Int]?
        /// `SELECT "Z_PK" FROM "T" WHERE "a" = ? AND … LIMIT 1`, its text bound in NFC: right
        /// while no text column of the constraint is flagged (``SQLiteNaNFlags``).
        let lookup: String
        /// The same comparing text columns through `osd_nfc`, for when one is flagged.
        let normalizedLookup: String
        /// The constraint's TEXT and JSON columns as flags name them (`Table.column`).
        let textColumns: Set<String>
        /// `SELECT 1 FROM "T" AS "a" JOIN "T" AS "b" ON "b"."Z_PK" <> "a"."Z_PK" AND osd_nfc("b"."a") = osd_nfc("a"."a") …
        /// WHERE "a"."Z_PK" = ? LIMIT 1`: whether another row equals the row in Swift.
        let twinLookup: String
    }

    /// Indexes into the table's columns of those that have a column, in the order of a row's values.
    let columnIndexes: [Int]
    /// For each of those: the model's value slot and the column's storage, so that building a row
    /// reads neither the column's nor the property's description (copying those structs per value
    /// was as costly as encoding the value).
    let columnSlots: [Int]
    let columnStorages: [SQLiteColumn.Storage]
    /// `INSERT INTO "T" ("Z_PK", …) VALUES (?, …) ON CONFLICT("Z_PK") DO UPDATE SET …`: the key,
    /// then the row's values.
    let upsert: String
    /// The same without the conflict clause, for a row under a key no row has (``SQLiteInsertKeys``):
    /// SQLite does more work for an upsert than for a plain insert.
    let insert: String
    /// Per constraint of the table, in order.
    let uniqueConstraints: [UniqueConstraint]
    /// Indexes into the table's columns of the to-manys kept in join tables.
    let joinTableColumnIndexes: [Int]
    /// Whether a row holds keys of related rows (to-ones).
    let hasReferences: Bool
    /// Whether a row or its join-table pairs hold keys of related rows: a save then resolves
    /// references to its inserts.
    let refersToRows: Bool

    /// The quoted table and its columns in row order, for ``update(_:)``.
    private let quotedTable: String
    private let quotedColumns: [String]

    /// `UPDATE "T" SET "a" = ?, … WHERE "Z_PK" = ?` for the columns at `positions` of a row.
    func update(_ positions: [Int]) -> String {
        "UPDATE \(quotedTable) SET \(positions.map { "\(quotedColumns[$0]) = ?" }.joined(separator: ", ")) WHERE \(SQL.quote(SQL.primaryKey)) = ?"
    }

    /// `properties`: per column of `table`, the model property it holds. `storage`: the table the
    /// rows go to (``SQLiteEntityLayout/storage``); for a hierarchy's table each row names its
    /// entity, and a row written whole clears the columns of the hierarchy's other classes (an
    /// upsert on a constraint of the base may turn a row into another class's).
    init(table: SQLiteTable, properties: [ModelTypeInfo.Property], storage: SQLiteTable) {
        columnIndexes = table.columns.indices.filter { table.columns[$0].hasColumn }
        columnSlots = columnIndexes.map { properties[$0].index }
        columnStorages = columnIndexes.map { table.columns[$0].storage }
        let names = columnIndexes.map { table.columns[$0].name }
        quotedTable = SQL.quote(table.name)
        quotedColumns = names.map(SQL.quote)
        var insertedColumns = [SQL.primaryKey]
        var values = ["?"]
        var updates = names.map { "\(SQL.quote($0)) = excluded.\(SQL.quote($0))" }
        if table.hierarchy != nil {
            insertedColumns.append(SQL.entityColumn)
            values.append(SQL.literal(table.entityName))
            updates.insert("\(SQL.quote(SQL.entityColumn)) = excluded.\(SQL.quote(SQL.entityColumn))", at: 0)
            let own = Set(names)
            updates += storage.columns.flatMap(\.columnNames).filter { !own.contains($0) }.map { "\(SQL.quote($0)) = NULL" }
        }
        insertedColumns += names
        values += names.map { _ in "?" }
        let update = updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", ")
        insert = "INSERT INTO \(SQL.quote(table.name)) (\(insertedColumns.map(SQL.quote).joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
        upsert = "\(insert) ON CONFLICT(\(SQL.quote(SQL.primaryKey))) DO \(update)"
        uniqueConstraints = table.uniqueConstraints.map { Self.uniqueConstraint($0, table: table, properties: properties, names: names) }
        joinTableColumnIndexes = table.columns.indices.filter { table.columns[$0].joinTable != nil }
        hasReferences = columnStorages.contains(.toOne)
        refersToRows = hasReferences || !joinTableColumnIndexes.isEmpty
    }

    /// A constraint over `constrained` (property names), its row positions among `names`; text
    /// columns that may hold text not in NFC are listed, and compared through `osd_nfc` by the
    /// normalized lookup and the twin lookup.
    private static func uniqueConstraint(_ constrained: [String], table: SQLiteTable, properties: [ModelTypeInfo.Property],
                                         names: [String]) -> UniqueConstraint {
        let positions = constrained.map { property in names.firstIndex(of: property) }
        let text = constrained.filter { property in
            guard let index = table.columns.firstIndex(where: { $0.property == property }) else { return false }
            return SQLiteValueCoding.mayHoldUnnormalizedText(properties[index].valueType, storage: table.columns[index].storage)
        }
        let nfc = SQLiteQueryBinding.nfcFunction
        let (quoted, key) = (SQL.quote(table.name), SQL.quote(SQL.primaryKey))
        func lookup(normalizing: Bool) -> String {
            let conditions = constrained.map { property in
                let column = SQL.quote(property)
                return normalizing && text.contains(property) ? "\(nfc)(\(column)) = ?" : "\(column) = ?"
            }
            return "SELECT \(key) FROM \(quoted) WHERE \(conditions.joined(separator: " AND ")) LIMIT 1"
        }
        let equal = constrained.map { property in
            let (mine, other) = ("\"a\".\(SQL.quote(property))", "\"b\".\(SQL.quote(property))")
            return text.contains(property) ? "\(nfc)(\(other)) = \(nfc)(\(mine))" : "\(other) = \(mine)"
        }
        let twinLookup = "SELECT 1 FROM \(quoted) AS \"a\" JOIN \(quoted) AS \"b\" ON \"b\".\(key) <> \"a\".\(key) AND \(equal.joined(separator: " AND ")) WHERE \"a\".\(key) = ? LIMIT 1"
        return UniqueConstraint(positions: positions.contains(nil) ? nil : positions.compactMap { $0 },
                                lookup: lookup(normalizing: false), normalizedLookup: lookup(normalizing: true),
                                textColumns: Set(text.map { "\(table.name).\($0)" }), twinLookup: twinLookup)
    }
}
