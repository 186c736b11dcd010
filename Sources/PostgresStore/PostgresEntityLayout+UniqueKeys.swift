import OpenSwiftDataSQL

/// A uniqueness constraint's index keys a text or binary column by the SHA-256 digest of its
/// value: a b-tree entry holds at most about 2.7 kB, and a constraint must hold for values of any
/// length (a 1 MB string under `@Attribute(.unique)` saves and merges as a short one does). Equal
/// digests stand for equal values, SHA-256 being collision resistant. A hash index on each such
/// column keeps equality lookups (predicates, the merge of an insert) indexed, as the b-tree on
/// the column itself did; a hash index keeps only each value's hash, so any length fits.
extension PostgresEntityLayout {
    /// The store's function giving a text's digest: `convert_to` is only `STABLE`, and an index
    /// expression must be `IMMUTABLE`, which converting a database's text to UTF-8 is.
    static let textDigestFunction = "osd_text_digest"

    /// Creates ``textDigestFunction``, naming the catalog's functions in full so that no schema
    /// on the search path can stand in for them.
    static var textDigestFunctionStatement: String {
        "CREATE FUNCTION \(PostgresSQL.quote(textDigestFunction))(text) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE "
            + "AS $$ SELECT pg_catalog.sha256(pg_catalog.convert_to($1, 'UTF8')) $$"
    }

    /// Whether a uniqueness constraint's index keys the property by its digest.
    func isDigested(_ property: String) -> Bool {
        switch column(named: property)?.storage {
        case .text?, .json?, .bytes?: true
        default: false
        }
    }

    /// A constraint's column as its unique index keys it: `"osd_text_digest"("name")`, or the
    /// quoted column itself.
    func uniqueKey(_ property: String) -> String {
        let quoted = PostgresSQL.quote(property)
        switch column(named: property)?.storage {
        case .text?, .json?: return "\(PostgresSQL.quote(Self.textDigestFunction))(\(quoted))"
        case .bytes?: return "pg_catalog.sha256(\(quoted))"
        default: return quoted
        }
    }

    /// The `ON CONFLICT` target naming the constraint's unique index: its keys, each expression
    /// in parentheses, from which PostgreSQL infers the index.
    func conflictTarget(_ constraint: [String]) -> String {
        constraint.map { isDigested($0) ? "(\(uniqueKey($0)))" : PostgresSQL.quote($0) }.joined(separator: ", ")
    }

    /// The table's indexes by name, as created: ``indexes``, with a unique one over a digested
    /// column named `osd_<entity>_uniquedigest_<columns>` (so that a store whose index keyed the
    /// column itself gets it replaced as it opens), then the lookup indexes on those columns.
    var indexStatements: [(name: String, statement: String)] {
        var statements: [(name: String, statement: String)] = []
        var lookups: [String] = []
        for index in indexes {
            guard index.isUnique, index.columns.contains(where: isDigested) else {
                statements.append((index.name, PostgreSQLDialect().render(index)))
                continue
            }
            let name = "osd_\(entityName)_uniquedigest_\(index.columns.joined(separator: "_"))"
            let keys = index.columns.map(uniqueKey).joined(separator: ", ")
            statements.append((name, "CREATE UNIQUE INDEX \(PostgresSQL.quote(name)) ON \(table) (\(keys))"))
            for column in index.columns where isDigested(column) && !lookups.contains(column) { lookups.append(column) }
        }
        return statements + lookups.map { column in
            let name = "osd_\(entityName)_lookup_\(column)"
            return (name, "CREATE INDEX \(PostgresSQL.quote(name)) ON \(table) USING hash (\(PostgresSQL.quote(column)))")
        }
    }
}
