import Foundation

/// An error of a ``RemoteStore``: a code to match on and a message; for answers from the server,
/// its HTTP status and its own error code and message.
///
/// ```swift
/// catch let error as RemoteStoreError where error.code == .conflict && error.serverCode == "uniqueConstraintViolation" { … }
/// ```
public struct RemoteStoreError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure it is; match on it with `==`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, such as `"conflict"`.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The configuration cannot work (URL, token).
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        /// The configuration would send the token unencrypted (`http://`) to another machine;
        /// use `https://`, or set ``RemoteStoreConfiguration/allowsInsecureHTTP``.
        public static let insecureTransport = Code(rawValue: "insecureTransport")
        /// The `https://` server's certificate is not one this client trusts (an unknown CA, a
        /// self-signed certificate, expired, or issued for another host); nothing was sent. For
        /// a private CA, set ``RemoteStoreConfiguration/additionalRootCertificates``.
        public static let untrustedServer = Code(rawValue: "untrustedServer")
        /// 401: no token, or one the server does not accept.
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// 403: the server's store refuses (read-only).
        public static let forbidden = Code(rawValue: "forbidden")
        /// 404: the server's schema lacks the entity.
        public static let notFound = Code(rawValue: "notFound")
        /// 400 or 422: the server could not accept the request as sent.
        public static let invalidRequest = Code(rawValue: "invalidRequest")
        /// 409: a constraint (uniqueness, deny delete rule) refused the save; nothing was saved.
        public static let conflict = Code(rawValue: "conflict")
        /// 413: the request is larger than the server accepts.
        public static let payloadTooLarge = Code(rawValue: "payloadTooLarge")
        /// The server could not be reached (refused, reset, DNS), after every attempt.
        public static let unreachable = Code(rawValue: "unreachable")
        /// A request that changes the store (a save, a batch delete) reached the server, but no
        /// answer came back: it may have been applied. After a save, the context's changes are
        /// still pending, and saving them again sends the same idempotency key, so the server
        /// applies them at most once.
        public static let outcomeUnknown = Code(rawValue: "outcomeUnknown")
        /// No answer within the configured timeout, after every attempt.
        public static let timedOut = Code(rawValue: "timedOut")
        /// 5xx: the server failed.
        public static let serverError = Code(rawValue: "serverError")
        /// The server serves another shape of an entity this client uses: client and server were
        /// built from different schema versions. The message names both.
        public static let schemaMismatch = Code(rawValue: "schemaMismatch")
        /// The server's answer could not be read.
        public static let invalidResponse = Code(rawValue: "invalidResponse")
    }

    /// What kind of failure it is.
    public let code: Code
    /// What went wrong: the server's message for an answer, the client's otherwise.
    public let message: String
    /// The HTTP status of the server's answer, if one came.
    public let status: Int?
    /// The `code` of the server's JSON error body (e.g. `uniqueConstraintViolation`).
    public let serverCode: String?
    /// The transport or decoding error behind this one, if any.
    public let underlying: (any Error)?

    /// Creates an error, with the server's status and code when it answered.
    public init(_ code: Code, _ message: String, status: Int? = nil, serverCode: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.serverCode = serverCode
        self.underlying = underlying
    }

    /// The code, the message and the server's status and code, when it answered.
    public var description: String {
        var text = "\(code): \(message)"
        if let status { text += " (HTTP \(status)\(serverCode.map { ", \($0)" } ?? ""))" }
        return text
    }
}
