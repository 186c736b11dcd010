import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@_PersistedProperty`, attached by `@Model`: the property's value lives in the backing data.
public enum PersistedPropertyMacro: BackingDataAccessors {
    static let getter = "getValue"
    static let setter = "setValue"
    static let modifiesInPlace = true
}

/// `@_TransformablePersistedProperty`, attached by `@Model` to `@Attribute(.transformable(by:))`
/// properties, whose values go through a value transformer instead of `Codable`.
public enum TransformablePersistedPropertyMacro: BackingDataAccessors {
    static let getter = "getTransformableValue"
    static let setter = "setTransformableValue"
    static let modifiesInPlace = false
}

/// The accessors and the `_name` peer shared by both persisted-property macros; they differ only
/// in the backing-data methods they call.
protocol BackingDataAccessors: AccessorMacro, PeerMacro {
    static var getter: String { get }
    static var setter: String { get }
    /// Whether array properties get a `_modify` accessor that lets the backing data hand the
    /// array over to be changed in place (``PersistentModel/_beginInPlaceModification(forKey:)``).
    static var modifiesInPlace: Bool { get }
}

extension BackingDataAccessors {
    public static func expansion(
        of node: AttributeSyntax,
        providingAccessorsOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AccessorDeclSyntax] {
        guard case .persisted(let property) = declaration.as(VariableDeclSyntax.self)?.persistence else { return [] }
        let keyPath: ExprSyntax = "\\.\(property.identifier.trimmed)"
        let storage = property.storageName
        // The init accessor lets the class's own initializers assign the property before
        // `self` is available, writing straight into the backing data.
        let modify: [AccessorDeclSyntax] = modifiesInPlace && property.isArray ? [
            """
            _modify {
                _$observationRegistrar.access(self, keyPath: \(keyPath))
                _$observationRegistrar.willSet(self, keyPath: \(keyPath))
                defer {
                    _$observationRegistrar.didSet(self, keyPath: \(keyPath))
                }
                var value = self.\(raw: getter)(forKey: \(keyPath))
                self._beginInPlaceModification(forKey: \(keyPath))
                defer {
                    self.\(raw: setter)(forKey: \(keyPath), to: value)
                }
                yield &value
            }
            """,
        ] : []
        return [
            """
            @storageRestrictions(accesses: _$backingData, initializes: \(raw: storage))
            init(initialValue) {
                _$backingData.\(raw: setter)(forKey: \(keyPath), to: initialValue)
                \(raw: storage) = _SwiftDataNoType()
            }
            """,
            """
            get {
                _$observationRegistrar.access(self, keyPath: \(keyPath))
                return self.\(raw: getter)(forKey: \(keyPath))
            }
            """,
            """
            set {
                _$observationRegistrar.withMutation(of: self, keyPath: \(keyPath)) {
                    self.\(raw: setter)(forKey: \(keyPath), to: newValue)
                }
            }
            """,
        ] + modify
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard case .persisted(let property) = declaration.as(VariableDeclSyntax.self)?.persistence else { return [] }
        // An untyped property has an initial value, so its peer has one too, and needs no `?`.
        let suffix = switch property.type.map(Optionality.init) ?? .none {
        case .none: ""
        case .optional: "?"
        case .implicitlyUnwrapped: "!"
        }
        let initializer = property.initializer == nil ? "" : " = _SwiftDataNoType()"
        return [
            """
            @OpenSwiftDataSurface.Transient
            private var \(raw: property.storageName): _SwiftDataNoType\(raw: suffix)\(raw: initializer)
            """,
        ]
    }
}
