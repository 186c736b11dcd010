/// An error raised by OpenSwiftData itself (as opposed to ``SwiftDataError``, which mirrors SwiftData's
/// own error values): a code to match on and a message that says what to do.
public struct PersistenceError: Error, CustomStringConvertible, Sendable {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
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

    public let code: Code
    public let message: String
    /// The error that caused this one, if any.
    public let underlying: (any Error)?

    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String {
        guard let underlying else { return "\(code): \(message)" }
        return "\(code): \(message) (\(underlying))"
    }
}
