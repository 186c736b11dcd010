extension Schema {
    /// A semantic version (`major.minor.patch`), compared as SemVer 2.0 §11 orders release versions.
    public struct Version: Codable, Comparable, CustomStringConvertible, Hashable, Sendable {
        public let major: Int
        public let minor: Int
        public let patch: Int

        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            precondition(major >= 0 && minor >= 0 && patch >= 0, "Schema.Version components must not be negative")
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        public var description: String { "\(major).\(minor).\(patch)" }

        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
    }
}
