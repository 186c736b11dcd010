import GRDB
import OpenSwiftDataCore

/// The store's column flags (``SQLiteMetadata/flaggedColumns(_:)``) for one query, read in the
/// query's own transaction the first time it names a column that can hold NaN or `-0.0`: only
/// REAL and JSON columns can, and most queries name none, so they skip reading the flags.
final class SQLiteNaNFlags {
    private let db: Database?
    private var flags: (nan: Set<String>, signedZero: Set<String>)?
    /// Whether a column that can hold NaN was named: SQL rendered then depends on the flags.
    private(set) var consulted = false

    init(_ db: Database) {
        self.db = db
    }

    private init() {
        db = nil
    }

    /// Flags that read nothing and answer no NaN anywhere: a rendering with them tells whether
    /// the query needs the flags at all (``consulted``), and is used only when it does not.
    static func probe() -> SQLiteNaNFlags { SQLiteNaNFlags() }

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

    private func read(_ db: Database) throws -> (nan: Set<String>, signedZero: Set<String>) {
        if let flags { return flags }
        let read = try SQLiteMetadata.flaggedColumns(db)
        flags = read
        return read
    }
}
