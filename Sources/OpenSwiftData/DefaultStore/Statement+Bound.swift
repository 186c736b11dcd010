import GRDB
// GRDB's own SQLite module, which the GRDB product brings; GRDB documents raw SQLite calls on its
// statements ("Raw SQLite Pointers").
import GRDBSQLite
import OpenSwiftDataCore

extension GRDB.Statement {
    /// Runs a statement that returns no rows with these values bound straight through SQLite's C
    /// API. Building GRDB's `StatementArguments` and binding through them cost more than SQLite's
    /// own work for each inserted row.
    ///
    /// Only for the store's own statements, on GRDB's queue. While a transaction observer watches
    /// the connection (``ObservedConnections``) the statement runs through GRDB, whose bookkeeping
    /// tells the observer of each changed row. Otherwise that bookkeeping is skipped, which covers
    /// no observer, GRDB's transaction date (the store never asks for it) and statements after an
    /// aborted transaction (a failed step throws here first). Errors are GRDB's `DatabaseError`
    /// with SQLite's extended code, as `execute(arguments:)` throws them.
    func executeBound(_ values: [DatabaseValue]) throws {
        try forEachRowBound(values) { _ in }
    }

    /// Binds text from the string's own UTF-8 (a small string's is copied to the stack), with its
    /// length. GRDB's binding makes a C string of it (`utf8CString`, an allocated array) and has
    /// SQLite measure it, most of the cost of binding a text value.
    private static func bind(_ text: inout String, to handle: OpaquePointer, at index: CInt) {
        text.withUTF8 { bytes in
            // An empty buffer may have no address, which SQLite would bind as NULL.
            guard let base = bytes.baseAddress else { return _ = sqlite3_bind_text(handle, index, "", 0, transient) }
            _ = base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { sqlite3_bind_text(handle, index, $0, CInt(bytes.count), transient) }
        }
    }

    /// SQLite's `SQLITE_TRANSIENT`: it copies the bytes before the binding call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Runs a query with these values bound straight through SQLite's C API, calling `row` with
    /// the statement at each row. GRDB's cursor and arguments cost more per
    /// query than SQLite's own work for a lookup by key; the same conditions as
    /// ``executeBound(_:)`` apply.
    func forEachRowBound(_ values: [DatabaseValue], _ row: (OpaquePointer) throws -> Void) throws {
        let handle = sqliteStatement
        if ObservedConnections.isObserved(sqlite3_db_handle(handle)) {
            let rows = try Row.fetchCursor(self, arguments: StatementArguments(values))
            while try rows.next() != nil { try row(handle) }
            return
        }
        sqlite3_reset(handle)
        // Resetting keeps the previous bindings; a statement always gets all of its values.
        for (index, value) in values.enumerated() {
            // Strings and blobs are copied (SQLITE_TRANSIENT), so the values may go away at once.
            if case .string(var text) = value.storage {
                Self.bind(&text, to: handle, at: CInt(index + 1))
            } else {
                _ = value.bind(to: handle, at: CInt(index + 1))
            }
        }
        // Reset at the end too, so a finished read holds no lock on the file; and unbind, since the
        // cached statement would otherwise keep SQLite's copy of each bound text and blob (a whole
        // large value) until it next runs.
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: try row(handle)
            case SQLITE_DONE: return
            default:
                let connection = sqlite3_db_handle(handle)
                throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(connection)),
                                    message: String(cString: sqlite3_errmsg(connection)), sql: String(cString: sqlite3_sql(handle)))
            }
        }
    }
}
