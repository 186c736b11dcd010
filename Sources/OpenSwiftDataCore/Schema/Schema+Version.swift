extension Schema {
    /// A semantic version (`major.minor.patch`), compared as SemVer 2.0 §11 orders release versions.
    public struct Version: Codable, Comparable, CustomStringConvertible, Hashable, Sendable {
        /// The major version: raised for incompatible changes.
        public let major: Int
        /// The minor version: raised for compatible additions.
        public let minor: Int
        /// The patch version: raised for fixes.
        public let patch: Int

        /// Creates a version from its three numbers.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            precondition(major >= 0 && minor >= 0 && patch >= 0, "Schema.Version components must not be negative")
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// The version as `major.minor.patch`.
        public var description: String { "\(major).\(minor).\(patch)" }

        /// Whether one version comes before another, comparing major, then minor, then patch.
        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
    }
}
