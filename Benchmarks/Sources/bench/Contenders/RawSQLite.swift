import GRDBSQLite

/// The baseline: SQLite's C API, prepared statements reused, one transaction per write phase,
/// text decoded straight from SQLite's buffers. Nothing can do the same work with less.
final class RawConnection {
    private var handle: OpaquePointer?

    /// Opens (creates) the file in WAL mode, as OpenSwiftData's default store does.
    init(path: String) throws {
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
            throw RawError(message: "cannot open \(path)")
        }
        try execute("PRAGMA journal_mode = WAL")
    }

    deinit { sqlite3_close_v2(handle) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else { throw error(sql) }
    }

    func prepare(_ sql: String) throws -> RawStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw error(sql)
        }
        return RawStatement(statement, connection: self)
    }

    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    var lastInsertedRowID: Int { Int(sqlite3_last_insert_rowid(handle)) }
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    func error(_ sql: String) -> RawError {
        RawError(message: "\(String(cString: sqlite3_errmsg(handle))) in \(sql)")
    }
}

struct RawError: Error {
    var message: String
}

private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

final class RawStatement {
    private let handle: OpaquePointer
    private let connection: RawConnection

    fileprivate init(_ handle: OpaquePointer, connection: RawConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    func bind(_ index: Int32, _ value: Int) { sqlite3_bind_int64(handle, index, Int64(value)) }
    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }
    func bind(_ index: Int32, _ value: String) { sqlite3_bind_text(handle, index, value, -1, transient) }

    func bind(_ index: Int32, _ value: String?) {
        if let value { bind(index, value) } else { sqlite3_bind_null(handle, index) }
    }

    /// Steps once; true while there is a row to read.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(String(cString: sqlite3_sql(handle)))
        }
    }

    /// Runs a statement that returns no rows, then makes it ready for the next bindings.
    func run() throws {
        _ = try step()
        sqlite3_reset(handle)
    }

    func reset() { sqlite3_reset(handle) }

    func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }
    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func text(_ column: Int32) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }

    func optionalText(_ column: Int32) -> String? {
        sqlite3_column_type(handle, column) == SQLITE_NULL ? nil : text(column)
    }
}
