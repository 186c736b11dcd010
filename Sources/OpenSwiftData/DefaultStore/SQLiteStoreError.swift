import GRDB
import OpenSwiftDataCore

/// The core's error, not GRDB's of the same name, throughout this module.
typealias PersistenceError = OpenSwiftDataCore.PersistenceError

/// An error of the SQLite ``DefaultStore``: a code to match on, a message that says what to do,
/// the store file it concerns, and the SQLite error behind it.
///
/// ```swift
/// do { _ = try ModelContainer(for: Trip.self) }
/// catch let error as SQLiteStoreError where error.code == .notAStore { … }
/// ```
///
/// `description` never shows the values a statement bound: only the SQLite result code and
/// message, which name tables and columns but not their contents.
public struct SQLiteStoreError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure it is; match on it with `==`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, such as `"notAStore"`.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The file is an SQLite database, but not one of this store's (no store metadata).
        public static let notAStore = Code(rawValue: "notAStore")
        /// The file is not a readable SQLite database, or its contents are damaged.
        public static let corrupt = Code(rawValue: "corrupt")
        /// The file or its directory could not be opened or created.
        public static let cannotOpen = Code(rawValue: "cannotOpen")
        /// The file was written by a newer release of the store.
        public static let unsupportedFormat = Code(rawValue: "unsupportedFormat")
        /// The store's tables differ from the schema in a way lightweight migration cannot bridge.
        public static let incompatibleSchema = Code(rawValue: "incompatibleSchema")
        /// The store needs a migration, but its configuration does not allow writing.
        public static let migrationRequired = Code(rawValue: "migrationRequired")
        /// A save would make two models equal on a uniqueness constraint.
        public static let uniqueConstraintViolation = Code(rawValue: "uniqueConstraintViolation")
        /// A value cannot be stored, or a stored value cannot be read back as its property's type.
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// A model refers to a model this store does not hold (another store's, or an unsaved one).
        public static let invalidReference = Code(rawValue: "invalidReference")
        /// Another connection held the database lock for longer than the busy timeout.
        public static let busy = Code(rawValue: "busy")
        /// Any other SQLite failure (disk full, I/O error, …).
        public static let sqliteFailure = Code(rawValue: "sqliteFailure")
    }

    /// What kind of failure it is.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String
    /// The store file's path, or `:memory:` for an in-memory store.
    public let path: String
    /// The SQLite or file-system error behind this one, if any.
    public let underlying: (any Error)?

    /// Creates an error about the store at `path`, with the error that caused it.
    public init(_ code: Code, _ message: String, path: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.underlying = underlying
    }

    /// The code, the message, the store's path and the cause, without any bound values.
    public var description: String {
        var text = "\(code): \(message) (store: \(path))"
        if let underlying { text += " [\(Self.describe(underlying))]" }
        return text
    }

    /// GRDB's own description can include the statement's SQL; keep only code and message.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return String(describing: error) }
        return "SQLite error \(error.extendedResultCode.rawValue): \(error.message ?? "no message")"
    }
}

extension SQLiteStoreError {
    /// Classifies a failure of SQLite itself, keeping it as the underlying error.
    static func wrapping(_ error: any Error, path: String, doing action: String) -> any Error {
        if error is SQLiteStoreError || error is PersistenceError || error is DataStoreError || error is SwiftDataError { return error }
        guard let database = error as? DatabaseError else {
            return SQLiteStoreError(.sqliteFailure, "\(action) failed.", path: path, underlying: error)
        }
        switch database.resultCode {
        case .SQLITE_NOTADB, .SQLITE_CORRUPT:
            return SQLiteStoreError(.corrupt, "\(action) failed: the file is not a readable SQLite database or is damaged. Restore it from a backup, or move it away to start an empty store.", path: path, underlying: error)
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return SQLiteStoreError(.busy, "\(action) failed: another connection kept the store locked past the busy timeout. Retry, or end the process that holds it.", path: path, underlying: error)
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_READONLY:
            return SQLiteStoreError(.cannotOpen, "\(action) failed: the file cannot be opened for this access. Check that its directory exists and that this user may read (and, to save, write) it.", path: path, underlying: error)
        case .SQLITE_CONSTRAINT where database.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE:
            return SQLiteStoreError(.uniqueConstraintViolation, "\(action) failed: an updated model now equals another on a uniqueness constraint. Change one of them, or delete the duplicate before saving.", path: path, underlying: error)
        case .SQLITE_CONSTRAINT where database.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY:
            return SQLiteStoreError(.invalidReference, "\(action) failed: a relationship names a model that is no longer stored (another context or process deleted it). Fetch the models again, set the relationship anew, and save.", path: path, underlying: error)
        default:
            return SQLiteStoreError(.sqliteFailure, "\(action) failed.", path: path, underlying: error)
        }
    }
}
