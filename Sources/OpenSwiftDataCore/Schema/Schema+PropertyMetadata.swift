extension Schema {
    /// One entry of a model's `schemaMetadata`, written by the `@Model` macro.
    public struct PropertyMetadata: @unchecked Sendable {
        package let name: String
        package let keypath: AnyKeyPath
        package let defaultValue: Any?
        package let metadata: (any SchemaProperty)?

        /// Describes one persisted property: its name, key path, default value and the attribute or
        /// relationship it was declared with.
        public init(name: String, keypath: AnyKeyPath, defaultValue: Any? = nil, metadata: (any SchemaProperty)? = nil) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
        }

        /// A property's initial value, typed by the property's key path: the compiler gives `.red`,
        /// `[]` and `nil` the property's type, and an untyped `var count = 0` its inferred one, so
        /// the macro never needs the type from the declaration's text.
        public static func _defaultValue<Model, Value>(_ keyPath: KeyPath<Model, Value>, _ value: Value) -> Any? {
            value
        }
    }
}
