import Foundation
import OpenSwiftDataCore

/// Why a ``PostgresStore`` could not do what was asked, with a message that says what to do.
public struct PostgresStoreError: Error, CustomStringConvertible, Sendable {
    /// The kinds of failure.
    public struct Code: RawRepresentable, Hashable, Sendable {
        /// The code's name.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The configuration cannot describe a connection (a malformed URL, an unknown `sslmode`).
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        /// The server could not be reached, or refused the login.
        public static let connectionFailed = Code(rawValue: "connectionFailed")
        /// PostgreSQL did not answer within the configuration's `timeout`; the connection was
        /// closed, so the server rolls back what the call had begun.
        public static let timedOut = Code(rawValue: "timedOut")
        /// The connection to PostgreSQL closed during the call (the server stopped or crashed, or
        /// the network failed); what the call had begun was rolled back, unless the message says
        /// a commit was under way.
        public static let connectionLost = Code(rawValue: "connectionLost")
        /// A synchronous call was made on one of the store's own event-loop threads, where
        /// waiting for the answer would never end.
        public static let calledOnEventLoop = Code(rawValue: "calledOnEventLoop")
        /// The database's tables do not match the schema.
        public static let incompatibleSchema = Code(rawValue: "incompatibleSchema")
        /// A save kept conflicting with concurrent saves (serialization failures or deadlocks)
        /// after every retry; nothing of it was saved.
        public static let saveConflict = Code(rawValue: "saveConflict")
        /// A save would break a uniqueness constraint; nothing of it was saved.
        public static let constraintViolation = Code(rawValue: "constraintViolation")
        /// A value cannot be stored, or a stored value cannot be read as its property's type.
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// PostgreSQL refused a statement.
        public static let queryFailed = Code(rawValue: "queryFailed")
    }

    /// What went wrong.
    public let code: Code
    /// What happened and what to do, never holding stored values or passwords.
    public let message: String
    /// PostgreSQL's SQLSTATE, when the server reported the failure.
    public let sqlState: String?

    /// Creates an error of `code` with its message.
    public init(_ code: Code, _ message: String, sqlState: String? = nil) {
        self.code = code
        self.message = message
        self.sqlState = sqlState
    }

    /// The code and message.
    public var description: String { "PostgresStoreError.\(code.rawValue): \(message)" }
}

extension PostgresStoreError: TransientStoreError {
    /// Whether the database could not be reached, did not answer in time, lost the connection,
    /// or kept conflicting with concurrent saves: the same call may succeed later.
    public var isTransient: Bool {
        [.connectionFailed, .timedOut, .connectionLost, .saveConflict].contains(code)
    }
}
