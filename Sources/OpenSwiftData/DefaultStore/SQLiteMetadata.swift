import Foundation
import GRDB
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// The store's own table, `osd_metadata` (`key`, `value`): what makes a file one of this store's,
/// the store identifier that permanent identifiers carry, and the description of the tables the
/// file holds, which migration compares with the schema.
///
/// | key | value |
/// |---|---|
/// | `format` | `2`, the layout of this release: to-ones are foreign keys, one-to-manys are read from them, many-to-manys are join tables (`1` kept to-manys as JSON key lists) |
/// | `storeIdentifier` | a UUID minted when the file was created; reopening gives the same identifiers |
/// | `schemaVersion` | the `Schema.version` last written |
/// | `tables` | JSON of the stored ``SQLiteTable``s |
/// | `schemaRecord` | JSON of the ``StoredSchema`` (version and entity fingerprints) migrations start from |
/// | `nanColumns` | JSON list of `Entity.property` that have held NaN or non-finite JSON numbers, which SQL compares unlike Swift, so queries on them run in memory |
/// | `signedZeroColumns` | JSON list of REAL `Entity.property` that have held `-0.0` (stored as TEXT, see ``SQLiteValueCoding``), which queries compare through `CAST(… AS REAL)` |
/// | `unnormalizedTextColumns` | JSON list of TEXT and JSON `Table.column` that have held text not in Unicode NFC (text is stored exactly as given), which queries compare through `osd_nfc(…)`; named after the table, which a class hierarchy's entities share |
struct SQLiteMetadata {
    static let currentFormat = 2

    var format = currentFormat
    var storeIdentifier: String
    var tables: [String: SQLiteTable]

    static func exists(_ db: Database) throws -> Bool {
        try db.tableExists(SQL.metadataTable)
    }

    /// Whether the database holds anything at all (tables, indexes, views, triggers).
    static func isEmptyDatabase(_ db: Database) throws -> Bool {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") == 0
    }

    /// The metadata of a store file; throws when the file was written by a newer format.
    static func read(_ db: Database, path: String) throws -> SQLiteMetadata {
        var values: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT \"key\", \"value\" FROM \(SQL.quote(SQL.metadataTable))") {
            values[row[0]] = row[1]
        }
        guard let format = values["format"].flatMap(Int.init), let storeIdentifier = values["storeIdentifier"] else {
            throw SQLiteStoreError(.corrupt, "The store's metadata table lacks its format or identifier; restore the file from a backup.", path: path)
        }
        guard format <= currentFormat else {
            throw SQLiteStoreError(.unsupportedFormat, "The store was written in format \(format), newer than this release reads (\(currentFormat)); open it with a newer OpenSwiftData.", path: path)
        }
        // Format 1 differs only in how it stored relationships: files without any read as format 2.
        if format < currentFormat, let tables = values["tables"], tables.contains(#""storage":"toOne""#) || tables.contains(#""storage":"toMany""#) {
            throw SQLiteStoreError(.unsupportedFormat, "The store was written in format \(format) by an earlier OpenSwiftData, which kept relationships as key columns and JSON key lists; this release (format \(currentFormat)) keeps them in foreign keys and join tables and does not convert them. Move the file (and its -wal and -shm files) aside to start a new store, or read it with the earlier release.", path: path)
        }
        do {
            let tables = try values["tables"].map { try JSONDecoder().decodeChecked([SQLiteTable].self, from: Data($0.utf8)) } ?? []
            // The flags are read per query (``flaggedColumns(_:)``); a file whose lists do not
            // decode is refused here, at open.
            for flag in [ColumnFlag.nan, .signedZero, .unnormalizedText] {
                _ = try values[flag.rawValue].map { try JSONDecoder().decodeChecked([String].self, from: Data($0.utf8)) }
            }
            return SQLiteMetadata(format: format, storeIdentifier: storeIdentifier, tables: Dictionary(tables.map { ($0.entityName, $0) }, uniquingKeysWith: { $1 }))
        } catch {
            throw SQLiteStoreError(.corrupt, "The store's table description cannot be read; restore the file from a backup.", path: path, underlying: error)
        }
    }

    /// Creates the metadata table of a new store.
    static func create(_ db: Database) throws -> SQLiteMetadata {
        try db.execute(sql: SQLiteDialect().render(StoreTables.metadata(ifNotExists: false)))
        let metadata = SQLiteMetadata(storeIdentifier: UUID().uuidString, tables: [:])
        try write("format", String(currentFormat), db)
        try write("storeIdentifier", metadata.storeIdentifier, db)
        return metadata
    }

    /// Marks a file of an older format, whose tables read the same, as written in this one.
    mutating func upgradeFormat(_ db: Database) throws {
        guard format < Self.currentFormat else { return }
        try Self.write("format", String(Self.currentFormat), db)
        format = Self.currentFormat
    }

    func writeTables(_ db: Database, schemaVersion: Schema.Version) throws {
        let sorted = tables.values.sorted { $0.entityName < $1.entityName }
        try Self.write("tables", try Self.json(sorted), db)
        try Self.write("schemaVersion", schemaVersion.description, db)
    }

    /// A list of columns that hold values SQL does not compare as Swift, by its metadata key.
    enum ColumnFlag: String {
        case nan = "nanColumns"
        case signedZero = "signedZeroColumns"
        case unnormalizedText = "unnormalizedTextColumns"
    }

    /// Reads the flags afresh: another connection may have set some since this one opened.
    /// Queries on REAL and JSON columns ask (``SQLiteNaNFlags``), so the statement is cached and
    /// the usual empty lists are not decoded; both lists come in one statement.
    static func flaggedColumns(_ db: Database) throws -> (nan: Set<String>, signedZero: Set<String>) {
        let statement = try db.cachedStatement(sql: "SELECT \"key\", \"value\" FROM \(SQL.quote(SQL.metadataTable)) WHERE \"key\" IN ('nanColumns', 'signedZeroColumns')")
        var flags: (nan: Set<String>, signedZero: Set<String>) = ([], [])
        for row in try Row.fetchAll(statement) {
            let text: String = row[1]
            guard text != "[]" else { continue }
            let columns = Set((try? JSONDecoder().decodeChecked([String].self, from: Data(text.utf8))) ?? [])
            if row[0] == ColumnFlag.nan.rawValue { flags.nan = columns } else { flags.signedZero = columns }
        }
        return flags
    }

    /// The text flags alone, read before each use of a plan that compares text: one key, most
    /// often absent, costs a lookup less than reading every flag does.
    static func unnormalizedTextColumns(_ db: Database) throws -> Set<String> {
        let statement = try db.cachedStatement(sql: "SELECT \"value\" FROM \(SQL.quote(SQL.metadataTable)) WHERE \"key\" = 'unnormalizedTextColumns'")
        guard let text = try String.fetchOne(statement), text != "[]" else { return [] }
        return Set((try? JSONDecoder().decodeChecked([String].self, from: Data(text.utf8))) ?? [])
    }

    static func flag(_ columns: Set<String>, _ flag: ColumnFlag, _ db: Database) throws {
        let current: Set<String>
        switch flag {
        case .unnormalizedText:
            current = try unnormalizedTextColumns(db)
        case .nan, .signedZero:
            let flagged = try flaggedColumns(db)
            current = flag == .nan ? flagged.nan : flagged.signedZero
        }
        guard !columns.isSubset(of: current) else { return }
        try write(flag.rawValue, try json(current.union(columns).sorted()), db)
    }

    private static func write(_ key: String, _ value: String, _ db: Database) throws {
        try db.execute(sql: "INSERT INTO \(SQL.quote(SQL.metadataTable)) (\"key\", \"value\") VALUES (?, ?) ON CONFLICT(\"key\") DO UPDATE SET \"value\" = excluded.\"value\"",
                       arguments: [key, value])
    }

    private static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

extension SQLiteMetadata {
    /// The migration record (``StoredSchema``); `nil` in a new store and in files written before
    /// stores kept one, which are brought to the current schema as they are.
    static func storedSchema(_ db: Database, path: String) throws -> StoredSchema? {
        guard try exists(db), let text = try String.fetchOne(db, sql: "SELECT \"value\" FROM \(SQL.quote(SQL.metadataTable)) WHERE \"key\" = 'schemaRecord'") else {
            return nil
        }
        do {
            return try JSONDecoder().decodeChecked(StoredSchema.self, from: Data(text.utf8))
        } catch {
            throw SQLiteStoreError(.corrupt, "The store's schema record cannot be read; restore the file from a backup.", path: path, underlying: error)
        }
    }

    /// Keeps `record`, writing only when it changed, so opening an unchanged store writes nothing.
    static func writeStoredSchema(_ record: StoredSchema, _ db: Database, path: String) throws {
        guard try storedSchema(db, path: path) != record else { return }
        try write("schemaRecord", try json(record), db)
    }
}
