/// Text as PostgreSQL compares it: the store keeps text exactly as given, and compares it in
/// Unicode NFC, as queries bind it, so that `=`, `<` and `ORDER BY` in the `"C"` collation are
/// Swift's `String` comparison (canonically equivalent spellings are equal).
///
/// `normalize(…, NFC)` costs several times a plain comparison per row; ASCII text, whose byte
/// length is its character length, is NFC already and skips it. Indexes on text key this same
/// expression, so that the planner matches a predicate's with theirs.
enum PostgresCanonicalText {
    /// `text` (an SQL expression without bound values) in NFC.
    static func expression(_ text: String) -> String {
        "(CASE WHEN octet_length(\(text)) = length(\(text)) THEN \(text) ELSE normalize(\(text), NFC) END)"
    }
}
