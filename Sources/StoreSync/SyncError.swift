import Foundation

/// Why a sync round failed, with a message that says what to do.
///
/// Rounds that fail with a retryable error (``isRetryable``: the server unreachable or
/// unavailable) lose nothing: the unpushed changes stay pending and the next round sends them.
public struct SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of error it is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as ``description`` prints it.
        public let rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's name.
        public var description: String { rawValue }

        /// The server could not be reached, or the connection broke before it answered.
        public static let offline = Code(rawValue: "offline")
        /// The server answered that it cannot serve now (5xx); retried later.
        public static let serverUnavailable = Code(rawValue: "serverUnavailable")
        /// The server refused the token.
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The client's schema version is not the server's.
        public static let schemaVersionMismatch = Code(rawValue: "schemaVersionMismatch")
        /// The server refused a request as invalid.
        public static let rejected = Code(rawValue: "rejected")
        /// The server's answer was not what the sync protocol says.
        public static let invalidResponse = Code(rawValue: "invalidResponse")
        /// The configuration would send the token unencrypted (`http://`) to another machine;
        /// use `https://`, or set ``SyncConfiguration/allowsInsecureHTTP``.
        public static let insecureTransport = Code(rawValue: "insecureTransport")
        /// The server's TLS certificate is not one this client trusts; a retry cannot help.
        /// Trust its CA through ``SyncConfiguration/httpClient``.
        public static let untrustedServer = Code(rawValue: "untrustedServer")
        /// The configuration or the container cannot be synced as given.
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        /// Reading or writing the local store (or the engine's own state) failed.
        public static let localStoreFailure = Code(rawValue: "localStoreFailure")
        /// The server's store is not the one this client synced with before.
        public static let serverStoreChanged = Code(rawValue: "serverStoreChanged")
        /// Local history the engine had not read yet was deleted, so the changes saved while the
        /// engine was not running were found by comparing every synced model with what the
        /// server last had of it; the differences were pushed and nothing was lost. A warning:
        /// the round succeeded, and it read the whole local store.
        public static let localHistoryExpired = Code(rawValue: "localHistoryExpired")
    }

    /// What kind of error it is.
    public let code: Code
    /// What went wrong and what to do.
    public let message: String

    /// Creates an error of a code, with a message that says what to do.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Whether a later round may succeed without anything changing on this side: the server was
    /// unreachable or unavailable.
    public var isRetryable: Bool { code == .offline || code == .serverUnavailable }

    /// The code and the message: `offline: The server at … could not be reached …`.
    public var description: String { "\(code): \(message)" }
}

extension SyncError.Code {
    /// The server deleted history after the client's last pull: the engine syncs every model
    /// again, as on a first sync, and never reports this code.
    static let serverHistoryExpired = SyncError.Code(rawValue: "serverHistoryExpired")
}
