import OpenSwiftDataCore

/// What every SQL store gives an entity's table: the integer key, the entity column of a class
/// hierarchy's table, references to other entities' rows, the join tables of many-to-manys, and
/// the indexes, named the same in each store.
package enum EntityTableSchema {
    /// The integer key column of every entity table (named as in Core Data's stores).
    package static let keyColumn = "Z_PK"

    /// The key, numbered by the database; a save may also write keys it reserved itself.
    package static var key: ColumnDefinition {
        ColumnDefinition(keyColumn, .integer, primaryKey: .generated(acceptsSuppliedValues: true))
    }

    /// The column of a hierarchy's table naming each row's entity (``EntityHierarchy``).
    package static var entity: ColumnDefinition {
        ColumnDefinition(EntityHierarchy.entityColumn, .text)
    }

    /// A reference to a row of `table`, checked at commit: a save writes rows that refer to each
    /// other in any order.
    package static func reference(to table: String, onDelete action: ReferentialAction) -> ForeignKeyReference {
        ForeignKeyReference(table: table, column: keyColumn, onDelete: action, isDeferred: true)
    }

    /// A many-to-many's table: one row per related pair (`owner`, `member`), deleted with either row.
    package static func joinTable(_ name: String, ownerTable: String, memberTable: String) -> TableDefinition {
        let owner = ColumnDefinition(joinOwnerColumn, .integer, reference: reference(to: ownerTable, onDelete: .cascade))
        let member = ColumnDefinition(joinMemberColumn, .integer, reference: reference(to: memberTable, onDelete: .cascade))
        return TableDefinition(name, columns: [owner, member], primaryKey: [joinOwnerColumn, joinMemberColumn], ifNotExists: true)
    }

    /// Reading a member's side (and cascading a member's delete) looks rows up by `member`.
    package static func joinTableMemberIndex(_ table: String) -> IndexDefinition {
        IndexDefinition("\(table)_member", on: table, columns: [joinMemberColumn], ifNotExists: true)
    }

    package static let joinOwnerColumn = "owner"
    package static let joinMemberColumn = "member"

    /// The indexes the stores keep on an entity's table, named `osd_<prefix>_<kind>_<columns>`:
    /// uniqueness constraints, `#Index`es, one per to-one key column (reading a one-to-many, and
    /// `ON DELETE SET NULL`, look rows up by it), and a hierarchy's entity column (a subclass's
    /// fetch reads its rows by their entity).
    package static func indexes(on table: String, namedAfter prefix: String, uniqueConstraints: [[String]], indices: [[String]],
                                toOneColumns: [String], hasEntityColumn: Bool, ifNotExists: Bool) -> [IndexDefinition] {
        func index(_ kind: String, _ columns: [String], unique: Bool) -> IndexDefinition {
            IndexDefinition("osd_\(prefix)_\(kind)_\(columns.joined(separator: "_"))", on: table, columns: columns, isUnique: unique, ifNotExists: ifNotExists)
        }
        return uniqueConstraints.map { index("unique", $0, unique: true) } + indices.map { index("index", $0, unique: false) }
            + toOneColumns.map { index("reference", [$0], unique: false) }
            + (hasEntityColumn ? [index("entity", [EntityHierarchy.entityColumn], unique: false)] : [])
    }
}
