import Foundation
import Hummingbird

/// An error a ``StoreServer`` answers with: an HTTP status, a code and a message, sent as
/// `{"error": {"code": …, "message": …}}`.
public struct StoreServerError: Error, CustomStringConvertible, Sendable {
    /// What kind of error it is, sent as the body's `code`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as sent, such as `"invalidRequest"`.
        public let rawValue: String
        /// Creates a code from its text.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code as sent.
        public var description: String { rawValue }

        /// The server's configuration cannot be used (500).
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        /// No bearer token, or one the server does not accept (401).
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The request is malformed or names something the schema lacks (400).
        public static let invalidRequest = Code(rawValue: "invalidRequest")
        /// No such route or entity (404).
        public static let notFound = Code(rawValue: "notFound")
        /// The body is larger than the server's limit (413).
        public static let payloadTooLarge = Code(rawValue: "payloadTooLarge")
        /// The save violates a constraint, such as a unique attribute (409).
        public static let conflict = Code(rawValue: "conflict")
        /// The server refuses the operation, such as a save to a read-only store (403).
        public static let forbidden = Code(rawValue: "forbidden")
        /// The request took longer than the server's time limit (503).
        public static let timeout = Code(rawValue: "timeout")
        /// The store's service (its database server) could not be reached or did not answer in
        /// time; the same request may succeed shortly (503, with `Retry-After`).
        public static let storeUnavailable = Code(rawValue: "storeUnavailable")
        /// The store failed for a reason of its own (500).
        public static let storeFailure = Code(rawValue: "storeFailure")
    }

    /// What kind of error it is.
    public let code: Code
    /// What went wrong and what to do, sent as the body's `message`.
    public let message: String
    /// The HTTP status the error is answered with.
    public let status: HTTPResponse.Status
    /// The `code` sent in the body, when more precise than ``code`` (a store's own error code).
    let wireCode: String?
    /// What the server's log says besides ``message``, which the client gets: the store's own
    /// description, with hosts, users and paths a client need not see.
    var detail: String?

    /// Creates an error answered with the status of its code.
    public init(_ code: Code, _ message: String) {
        self.init(code, message, status: Self.status(for: code))
    }

    init(_ code: Code, _ message: String, status: HTTPResponse.Status, wireCode: String? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.wireCode = wireCode
    }

    /// The error's code and message.
    public var description: String { "\(code): \(message)" }

    private static func status(for code: Code) -> HTTPResponse.Status {
        switch code {
        case .unauthorized: .unauthorized
        case .invalidRequest: .badRequest
        case .notFound: .notFound
        case .payloadTooLarge: .contentTooLarge
        case .conflict: .conflict
        case .forbidden: .forbidden
        case .timeout, .storeUnavailable: .serviceUnavailable
        default: .internalServerError
        }
    }
}
