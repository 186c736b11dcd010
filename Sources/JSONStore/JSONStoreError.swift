import Foundation

/// An error of a ``JSONStore``: a code to match on, a message that says what to do, the file it
/// concerns, and the error that caused it.
public struct JSONStoreError: Error, CustomStringConvertible, Sendable {
    /// What kind of failure it is; match on it with `==`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, such as `"unreadableFile"`.
        public let rawValue: String
        /// Creates a code from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The configuration cannot describe a JSON store (e.g. its URL is not a file).
        public static let invalidConfiguration = Code(rawValue: "invalidConfiguration")
        /// The file is empty, damaged (its checksum does not match, it is truncated, not valid
        /// JSON), or does not hold snapshots of this schema, the same bytes read twice. The store
        /// refuses to save until the file is fixed or restored, so it never overwrites data it
        /// could not read.
        public static let unreadableFile = Code(rawValue: "unreadableFile")
        /// The file could not be read, written or synced (disk full, permissions, I/O error).
        /// The previous file is left intact, and nothing was saved.
        public static let ioFailure = Code(rawValue: "ioFailure")
        /// The save was applied and the new file is in place, but the disk did not confirm it
        /// durable (syncing its directory failed): a power loss may undo it. Do not make the same
        /// changes again; a retry with the same idempotency key is answered without applying
        /// them twice.
        public static let notSynced = Code(rawValue: "notSynced")
        /// A model's values cannot be encoded as JSON.
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// A save refers to a model this store does not hold.
        public static let invalidReference = Code(rawValue: "invalidReference")
        /// A save would store two models with equal values on a uniqueness constraint.
        public static let uniqueConstraintViolation = Code(rawValue: "uniqueConstraintViolation")
        /// The file's models cannot be brought to the schema by an inferred migration (a value
        /// of another type, nil in a non-optional property, duplicates on a new constraint).
        /// The file is left as it was.
        public static let incompatibleSchema = Code(rawValue: "incompatibleSchema")
    }

    /// What kind of failure it is.
    public let code: Code
    /// What went wrong and what to do about it.
    public let message: String
    /// The store's file.
    public let url: URL
    /// The error that caused this one, if any.
    public let underlying: (any Error)?

    /// Creates an error about the store file at `url`, with the error that caused it.
    public init(_ code: Code, _ message: String, url: URL, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.url = url
        self.underlying = underlying
    }

    /// The code and the message.
    public var description: String { "JSONStoreError.\(code): \(message)" }
}
