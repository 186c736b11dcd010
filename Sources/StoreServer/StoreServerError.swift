import Foundation
import Hummingbird

/// An error a ``StoreServer`` answers with: an HTTP status, a code and a message, sent as
/// `{"error": {"code": …, "message": …}}`.
public struct StoreServerError: Error, CustomStringConvertible, Sendable {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        public static let unauthorized = Code(rawValue: "unauthorized")
        public static let invalidRequest = Code(rawValue: "invalidRequest")
        public static let notFound = Code(rawValue: "notFound")
        public static let payloadTooLarge = Code(rawValue: "payloadTooLarge")
        public static let conflict = Code(rawValue: "conflict")
        public static let forbidden = Code(rawValue: "forbidden")
        public static let timeout = Code(rawValue: "timeout")
        public static let storeFailure = Code(rawValue: "storeFailure")
    }

    public let code: Code
    public let message: String
    /// The HTTP status the error is answered with.
    public let status: HTTPResponse.Status
    /// The `code` sent in the body, when more precise than ``code`` (a store's own error code).
    let wireCode: String?

    public init(_ code: Code, _ message: String) {
        self.init(code, message, status: Self.status(for: code))
    }

    init(_ code: Code, _ message: String, status: HTTPResponse.Status, wireCode: String? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.wireCode = wireCode
    }

    public var description: String { "\(code): \(message)" }

    private static func status(for code: Code) -> HTTPResponse.Status {
        switch code {
        case .unauthorized: .unauthorized
        case .invalidRequest: .badRequest
        case .notFound: .notFound
        case .payloadTooLarge: .contentTooLarge
        case .conflict: .conflict
        case .forbidden: .forbidden
        case .timeout: .serviceUnavailable
        default: .internalServerError
        }
    }
}
