extension Schema {
    /// Indexes declared with `#Index`.
    public final class Index<T>: SchemaProperty, CustomDebugStringConvertible, Hashable, Codable, @unchecked Sendable
        where T: PersistentModel {
        /// The kind of an index: an ordinary (binary) index or a spatial (R-tree) index, over key paths.
        public enum Types<P> where P: PersistentModel {
            /// An ordinary index over the key paths' values, in order.
            case binary([PartialKeyPath<P>])
            /// A spatial (R-tree) index in SwiftData; OpenSwiftData's stores create an ordinary index.
            case rtree([PartialKeyPath<P>])
        }

        /// The index's name in the entity's properties.
        public final var name: String = "SwiftData.Schema.Index"
        /// The name the index had in an earlier schema version; the same as ``name``.
        public final var originalName: String = "SwiftData.Schema.Index"
        /// Not a value's type: an index holds none.
        public final var valueType: any Any.Type = Any.self
        /// Always `false`: an index allows duplicates; use ``Schema/Unique`` for uniqueness.
        public final var isUnique: Bool { false }
        /// The indexes, each over one or more key paths of the model.
        public final let indices: [Types<T>]

        /// Declares indexes of the given kinds, as `#Index` does.
        public init(_ indices: Types<T>...) { self.indices = indices }
        /// Declares ordinary indexes, each over the key paths of one list.
        public init(_ binaryIndices: [PartialKeyPath<T>]...) { self.indices = binaryIndices.map(Types.binary) }

        /// The keys of an index's encoded form.
        public enum CodingKeys: CodingKey {
            /// The number of indexes.
            case indices
        }

        /// Key paths cannot be decoded; a decoded index keeps no columns.
        public init(from decoder: any Decoder) throws { indices = [] }
        /// Encodes how many indexes there are; key paths have no encoded form.
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

        /// Whether the two declare the same indexes over the same key paths.
        public static func == (lhs: Index, rhs: Index) -> Bool { lhs.keyPathLists == rhs.keyPathLists }
        /// Hashes the indexed key paths.
        public func hash(into hasher: inout Hasher) { hasher.combine(keyPathLists) }
        /// The indexed key paths, for debugging.
        public var debugDescription: String { "Index(\(keyPathLists))" }
    }

    /// Uniqueness constraints declared with `#Unique`.
    public final class Unique<T>: SchemaProperty, CustomDebugStringConvertible, Hashable, Codable, @unchecked Sendable
        where T: PersistentModel {
        /// The constraint's name in the entity's properties.
        public final var name: String = "SwiftData.Schema.Unique"
        /// The name the constraint had in an earlier schema version; the same as ``name``.
        public final var originalName: String = "SwiftData.Schema.Unique"
        /// Not a value's type: a constraint holds none.
        public final var valueType: any Any.Type = Any.self
        /// Always `true`.
        public final var isUnique: Bool { true }
        /// The constraints: each list of key paths must be unique as a combination among the models.
        public final let constraints: [[PartialKeyPath<T>]]

        /// Declares uniqueness constraints, as `#Unique` does: one per list of key paths.
        public init(_ constraints: [PartialKeyPath<T>]...) { self.constraints = constraints }

        /// The keys of a constraint list's encoded form.
        public enum CodingKeys: CodingKey {
            /// The number of constraints.
            case constraints
        }

        /// Key paths cannot be decoded; a decoded constraint list is empty.
        public init(from decoder: any Decoder) throws { constraints = [] }
        /// Encodes how many constraints there are; key paths have no encoded form.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(constraints.count, forKey: .constraints)
        }

        package var keyPathLists: [[AnyKeyPath]] { constraints.map { $0.map { $0 as AnyKeyPath } } }

        /// Whether the two declare the same constraints over the same key paths.
        public static func == (lhs: Unique, rhs: Unique) -> Bool { lhs.keyPathLists == rhs.keyPathLists }
        /// Hashes the constrained key paths.
        public func hash(into hasher: inout Hasher) { hasher.combine(keyPathLists) }
        /// The constrained key paths, for debugging.
        public var debugDescription: String { "Unique(\(keyPathLists))" }
    }
}

/// Lets the schema builder read `#Unique`/`#Index` metadata without knowing its generic model type.
package protocol KeyPathConstraintList {
    var keyPathLists: [[AnyKeyPath]] { get }
}
extension Schema.Index: KeyPathConstraintList {}
extension Schema.Unique: KeyPathConstraintList {}
