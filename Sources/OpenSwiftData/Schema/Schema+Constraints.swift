extension Schema {
    /// Indexes declared with `#Index`.
    public final class Index<T>: SchemaProperty, CustomDebugStringConvertible, Hashable, Codable, @unchecked Sendable
        where T: PersistentModel {
        public enum Types<P> where P: PersistentModel {
            case binary([PartialKeyPath<P>])
            case rtree([PartialKeyPath<P>])
        }

        public final var name: String = "SwiftData.Schema.Index"
        public final var originalName: String = "SwiftData.Schema.Index"
        public final var valueType: any Any.Type = Any.self
        public final var isUnique: Bool { false }
        public final let indices: [Types<T>]

        public init(_ indices: Types<T>...) { self.indices = indices }
        public init(_ binaryIndices: [PartialKeyPath<T>]...) { self.indices = binaryIndices.map(Types.binary) }

        public enum CodingKeys: CodingKey { case indices }

        /// Key paths cannot be decoded; a decoded index keeps no columns.
        public init(from decoder: any Decoder) throws { indices = [] }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(indices.count, forKey: .indices)
        }

        package var keyPathLists: [[AnyKeyPath]] {
            indices.map { index in
                switch index {
                case .binary(let paths), .rtree(let paths): paths.map { $0 as AnyKeyPath }
                }
            }
        }

        public static func == (lhs: Index, rhs: Index) -> Bool { lhs.keyPathLists == rhs.keyPathLists }
        public func hash(into hasher: inout Hasher) { hasher.combine(keyPathLists) }
        public var debugDescription: String { "Index(\(keyPathLists))" }
    }

    /// Uniqueness constraints declared with `#Unique`.
    public final class Unique<T>: SchemaProperty, CustomDebugStringConvertible, Hashable, Codable, @unchecked Sendable
        where T: PersistentModel {
        public final var name: String = "SwiftData.Schema.Unique"
        public final var originalName: String = "SwiftData.Schema.Unique"
        public final var valueType: any Any.Type = Any.self
        public final var isUnique: Bool { true }
        public final let constraints: [[PartialKeyPath<T>]]

        public init(_ constraints: [PartialKeyPath<T>]...) { self.constraints = constraints }

        public enum CodingKeys: CodingKey { case constraints }

        /// Key paths cannot be decoded; a decoded constraint list is empty.
        public init(from decoder: any Decoder) throws { constraints = [] }
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(constraints.count, forKey: .constraints)
        }

        package var keyPathLists: [[AnyKeyPath]] { constraints.map { $0.map { $0 as AnyKeyPath } } }

        public static func == (lhs: Unique, rhs: Unique) -> Bool { lhs.keyPathLists == rhs.keyPathLists }
        public func hash(into hasher: inout Hasher) { hasher.combine(keyPathLists) }
        public var debugDescription: String { "Unique(\(keyPathLists))" }
    }
}

/// Lets the schema builder read `#Unique`/`#Index` metadata without knowing its generic model type.
package protocol KeyPathConstraintList {
    var keyPathLists: [[AnyKeyPath]] { get }
}
extension Schema.Index: KeyPathConstraintList {}
extension Schema.Unique: KeyPathConstraintList {}
