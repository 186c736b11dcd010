import OpenSwiftDataSQL

/// A uniqueness constraint's index keys a text or binary column by the SHA-256 digest of its
/// value, text in NFC: a b-tree entry holds at most about 2.7 kB, and a constraint must hold for
/// values of any length (a 1 MB string under `@Attribute(.unique)` saves and merges as a short one
/// does). Equal digests stand for equal values, SHA-256 being collision resistant. Text is keyed
/// in NFC (``PostgresCanonicalText``) because two canonically equivalent spellings are one
/// `String` in Swift (`"e\u{301}" == "\u{e9}"`): they are one unique key, and an insert of one
/// merges into the model stored under the other, as in every store. A hash index on each such
/// column's NFC text keeps equality lookups (predicates, the merge of an insert) indexed; a hash
/// index keeps only each value's hash, so any length fits.
extension PostgresEntityLayout {
    /// The store's function giving a text's digest: `convert_to` is only `STABLE`, and an index
    /// expression must be `IMMUTABLE`, which converting a database's text to UTF-8 is.
    static let textDigestFunction = "osd_text_digest"

    /// The digest of a text's NFC, which unique indexes key text by since text is stored exactly
    /// as given (``textDigestFunction`` digests the text itself, and is kept for older stores).
    static let canonicalTextDigestFunction = "osd_nfc_text_digest"

    /// Creates the digest functions, naming the catalog's functions in full so that no schema
    /// on the search path can stand in for them: by name, the statement creating it.
    static var digestFunctionStatements: [(name: String, statement: String)] {
        func digest(_ name: String, of text: String) -> String {
            "CREATE FUNCTION \(PostgresSQL.quote(name))(text) RETURNS bytea LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE "
                + "AS $$ SELECT pg_catalog.sha256(pg_catalog.convert_to(\(text), 'UTF8')) $$"
        }
        return [(textDigestFunction, digest(textDigestFunction, of: "$1")),
                (canonicalTextDigestFunction, digest(canonicalTextDigestFunction,
                                                     of: "CASE WHEN pg_catalog.octet_length($1) = pg_catalog.length($1) THEN $1 ELSE pg_catalog.normalize($1, 'NFC') END"))]
    }

    /// Whether a uniqueness constraint's index keys the property by its digest.
    func isDigested(_ property: String) -> Bool {
        switch column(named: property)?.storage {
        case .text?, .json?, .bytes?: true
        default: false
        }
    }

    /// A constraint's column as its unique index keys it: `"osd_nfc_text_digest"("name")`, or the
    /// quoted column itself.
    func uniqueKey(_ property: String) -> String {
        let quoted = PostgresSQL.quote(property)
        switch column(named: property)?.storage {
        case .text?, .json?: return "\(PostgresSQL.quote(Self.canonicalTextDigestFunction))(\(quoted))"
        case .bytes?: return "pg_catalog.sha256(\(quoted))"
        default: return quoted
        }
    }

    /// The `ON CONFLICT` target naming the constraint's unique index: its keys, each expression
    /// in parentheses, from which PostgreSQL infers the index.
    func conflictTarget(_ constraint: [String]) -> String {
        constraint.map { isDigested($0) ? "(\(uniqueKey($0)))" : PostgresSQL.quote($0) }.joined(separator: ", ")
    }

    /// Whether the property is text, which indexes key in NFC (``PostgresCanonicalText``).
    func isText(_ property: String) -> Bool {
        switch column(named: property)?.storage {
        case .text?, .json?: true
        default: false
        }
    }

    /// The table's indexes by name, as created: ``indexes``, with a unique one over a digested
    /// column named `osd_<entity>_uniquenfc_<columns>` when it keys text (`…_uniquedigest_…` for
    /// binary columns only), and a `#Index` over text keying its NFC
    /// named `osd_<entity>_indexnfc_<columns>` (new names, so that a store whose index keyed
    /// the column itself, or its digest, gets it replaced as it opens), then the lookup indexes on
    /// the digested columns' NFC.
    var indexStatements: [(name: String, statement: String)] {
        var statements: [(name: String, statement: String)] = []
        var lookups: [String] = []
        for index in indexes {
            if !index.isUnique, index.name.hasPrefix("osd_\(entityName)_index_"), index.columns.contains(where: isText) {
                let name = "osd_\(entityName)_indexnfc_\(index.columns.joined(separator: "_"))"
                let keys = index.columns.map { isText($0) ? PostgresCanonicalText.expression(PostgresSQL.quote($0)) : PostgresSQL.quote($0) }
                statements.append((name, "CREATE INDEX \(PostgresSQL.quote(name)) ON \(table) (\(keys.joined(separator: ", ")))"))
                continue
            }
            guard index.isUnique, index.columns.contains(where: isDigested) else {
                statements.append((index.name, PostgreSQLDialect().render(index)))
                continue
            }
            let kind = index.columns.contains(where: isText) ? "uniquenfc" : "uniquedigest"
            let name = "osd_\(entityName)_\(kind)_\(index.columns.joined(separator: "_"))"
            let keys = index.columns.map(uniqueKey).joined(separator: ", ")
            statements.append((name, "CREATE UNIQUE INDEX \(PostgresSQL.quote(name)) ON \(table) (\(keys))"))
            for column in index.columns where isDigested(column) && !lookups.contains(column) { lookups.append(column) }
        }
        return statements + lookups.map { column in
            let key = isText(column) ? PostgresCanonicalText.expression(PostgresSQL.quote(column)) : PostgresSQL.quote(column)
            let name = "osd_\(entityName)_\(isText(column) ? "lookupnfc" : "lookup")_\(column)"
            return (name, "CREATE INDEX \(PostgresSQL.quote(name)) ON \(table) USING hash (\(key))")
        }
    }
}
