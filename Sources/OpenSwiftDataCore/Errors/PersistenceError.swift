/// An error raised by OpenSwiftData itself (as opposed to ``SwiftDataError``, which mirrors SwiftData's
/// own error values): a code to match on and a message that says what to do.
public struct PersistenceError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure it is; match on it with `==`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, such as `"readOnly"`.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// An identifier could not be minted or does not belong where it was used.
        public static let invalidIdentifier = Code(rawValue: "invalidIdentifier")
        /// A store or feature was asked for that is not available in this build.
        public static let unavailable = Code(rawValue: "unavailable")
        /// A snapshot could not be built, encoded or decoded.
        public static let invalidSnapshot = Code(rawValue: "invalidSnapshot")
        /// The model's type or entity is not part of the container's schema.
        public static let unknownEntity = Code(rawValue: "unknownEntity")
        /// The store is read-only.
        public static let readOnly = Code(rawValue: "readOnly")
        /// An operation needs a context state it does not have (e.g. pending changes during `enumerate`).
        public static let invalidContextState = Code(rawValue: "invalidContextState")
    }

    /// What kind of failure it is.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String
    /// The error that caused this one, if any.
    public let underlying: (any Error)?

    /// Creates an error with the error that caused it.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The code and the message, with the cause if there is one.
    public var description: String {
        guard let underlying else { return "\(code): \(message)" }
        return "\(code): \(message) (\(underlying))"
    }
}
