import OpenSwiftDataCore

/// Where the rows of a to-many relationship are, for ``SQLiteQueryRenderer``.
///
/// `count` and `isEmpty` count the rows of `table` whose `link` column equals the fetched row's
/// key (`owner`). `contains(where:)` and `allSatisfy` read the related models themselves: the rows
/// of `destination` whose key is among the `key` column of those rows (or, when `table` is the
/// destination's own table, those rows directly).
///
/// ```swift
/// // Trip.bucketList, stored as BucketListItem.trip
/// SQLiteRelatedRows(table: #""BucketListItem""#, key: #""Z_PK""#, link: #""trip""#, owner: #""Trip"."Z_PK""#,
///                   destination: #""BucketListItem""#, destinationKey: #""Z_PK""#) { alias, path in "\(alias).\"\(path)\"" }
/// ```
public struct SQLiteRelatedRows {
    /// The quoted table that holds the relationship's rows: a join table or the destination's table.
    public var table: String
    /// The quoted column of `table` holding the related model's key.
    public var key: String
    /// The quoted column of `table` holding the owning model's key.
    public var link: String
    /// The fetched row's key column, as the outer query names it.
    public var owner: String
    /// The quoted table of the related models.
    public var destination: String
    /// The quoted key column of the related models' table.
    public var destinationKey: String
    /// A property path of a related model, whose row is aliased `alias`; throws for paths it
    /// cannot render.
    public var elementColumn: (_ alias: String, _ path: QueryPropertyPath) throws -> String

    /// Describes where a to-many relationship's rows are, and how to render a related model's
    /// property paths.
    public init(table: String, key: String, link: String, owner: String, destination: String, destinationKey: String,
                elementColumn: @escaping (_ alias: String, _ path: QueryPropertyPath) throws -> String) {
        self.table = table
        self.key = key
        self.link = link
        self.owner = owner
        self.destination = destination
        self.destinationKey = destinationKey
        self.elementColumn = elementColumn
    }

    /// `FROM <table> AS <alias> WHERE <alias>.<link> = <owner>`.
    func links(alias: String) -> String {
        "FROM \(table) AS \(alias) WHERE \(alias).\(link) = \(owner)"
    }

    /// `SELECT` of the owners' keys of the related rows (as `alias`) that pass `condition`. A
    /// `NULL` link is left out, so that `NOT IN` over the keys is never `NULL`.
    func owners(alias: String, where condition: String) -> String {
        if table == destination {
            return "SELECT \(alias).\(link) FROM \(table) AS \(alias) WHERE \(alias).\(link) IS NOT NULL AND \(condition)"
        }
        let pairs = "l\(alias)"
        return "SELECT \(pairs).\(link) FROM \(table) AS \(pairs) JOIN \(destination) AS \(alias) ON \(alias).\(destinationKey) = \(pairs).\(key) WHERE \(pairs).\(link) IS NOT NULL AND \(condition)"
    }

    /// The related models' rows as `alias`, for a condition to follow with `AND`.
    func elements(alias: String) -> String {
        if table == destination { return links(alias: alias) }
        return "FROM \(destination) AS \(alias) WHERE \(alias).\(destinationKey) IN (SELECT \(key) FROM \(table) WHERE \(link) = \(owner))"
    }
}
