import GRDB
import OpenSwiftDataCore

/// The store's column flags (``SQLiteMetadata/flaggedColumns(_:)``) for one query, read in the
/// query's own transaction the first time it names a column that can hold NaN or `-0.0`: only
/// REAL and JSON columns can, and most queries name none, so they skip reading the flags.
///
/// Text flags (a TEXT or JSON column that has held text not in NFC) are read too, but do not
/// count as ``consulted``: a plan rendered while none of its text columns was flagged stays
/// right until one is, which the plan checks before each use (``textColumns``). Flags are never
/// cleared, so a plan that finds its columns unflagged compares only NFC text. The text flag is
/// read by itself, not in a transaction with the select: a row another connection commits in
/// between, spelled other than in NFC, is compared by its bytes by that one fetch.
final class SQLiteNaNFlags {
    private let db: Database?
    private var flags: (nan: Set<String>, signedZero: Set<String>)?
    private var textFlags: Set<String>?
    /// Whether a column that can hold NaN was named: SQL rendered then depends on the flags.
    private(set) var consulted = false
    /// The unflagged text columns (`Table.column`) the rendered SQL compares by their bytes.
    private(set) var textColumns: Set<String> = []

    /// Where the text flags are read: the probe reads them too.
    private let textDB: Database

    init(_ db: Database) {
        self.db = db
        textDB = db
    }

    private init(probing db: Database) {
        self.db = nil
        textDB = db
    }

    /// Flags that answer no NaN anywhere: a rendering with them tells whether the query needs
    /// the NaN flags at all (``consulted``), and is used only when it does not.
    static func probe(_ db: Database) -> SQLiteNaNFlags { SQLiteNaNFlags(probing: db) }

    /// Whether `Entity.property`, stored as `storage`, has held NaN or a non-finite JSON number.
    func flags(_ entityName: String, _ property: String, storage: SQLiteColumn.Storage) throws -> Bool {
        guard storage == .real || storage == .json else { return false }
        consulted = true
        guard let db else { return false }
        return try read(db).nan.contains("\(entityName).\(property)")
    }

    /// Whether the REAL `Entity.property` has held `-0.0`, which it keeps as TEXT.
    func holdsSignedZero(_ entityName: String, _ property: String, storage: SQLiteColumn.Storage) throws -> Bool {
        guard storage == .real else { return false }
        consulted = true
        guard let db else { return false }
        return try read(db).signedZero.contains("\(entityName).\(property)")
    }

    /// Whether the TEXT or JSON `column` of `table` has held text not in NFC, so that queries
    /// compare it through `osd_nfc`.
    func holdsUnnormalizedText(table: String, column: String, storage: SQLiteColumn.Storage) throws -> Bool {
        guard storage == .text || storage == .json else { return false }
        let name = "\(table).\(column)"
        if textFlags == nil { textFlags = try SQLiteMetadata.unnormalizedTextColumns(textDB) }
        if textFlags?.contains(name) == true { return true }
        textColumns.insert(name)
        return false
    }

    private func read(_ db: Database) throws -> (nan: Set<String>, signedZero: Set<String>) {
        if let flags { return flags }
        let read = try SQLiteMetadata.flaggedColumns(db)
        flags = read
        return read
    }
}
