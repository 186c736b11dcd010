import Foundation

/// The collections a predicate can capture or an attribute can hold: stored as arrays.
package protocol QueryCollectionType {
    static var elementType: Any.Type { get }
    var queryElements: [Any] { get }
}

extension Array: QueryCollectionType {
    package static var elementType: Any.Type { Element.self }
    package var queryElements: [Any] { map { $0 } }
}

extension ContiguousArray: QueryCollectionType {
    package static var elementType: Any.Type { Element.self }
    package var queryElements: [Any] { map { $0 } }
}

extension Set: QueryCollectionType {
    package static var elementType: Any.Type { Element.self }
    package var queryElements: [Any] { map { $0 } }
}

extension QueryValueType {
    /// The kind stores use for a Swift type, or nil when stores have no such kind.
    ///
    /// Models (anything `Identifiable` by a `PersistentIdentifier`) are their identifier.
    /// Nested optionals are refused: `.some(nil)` and `nil` have one query form.
    package init?(swiftType: Any.Type) {
        if let optional = swiftType as? any AnyOptional.Type {
            guard let wrapped = QueryValueType(swiftType: optional.optionalWrappedType), !wrapped.isOptional else { return nil }
            self.init(wrapped.kind, isOptional: true)
        } else if let kind = QueryValueKind(swiftType: swiftType) {
            self.init(kind)
        } else {
            return nil
        }
    }
}

extension QueryValueKind {
    fileprivate init?(swiftType type: Any.Type) {
        switch type {
        case is Bool.Type: self = .bool
        case is any FixedWidthInteger.Type: self = .integer
        case is Double.Type, is Float.Type: self = .double
        case is String.Type, is URL.Type: self = .string
        case is Date.Type: self = .date
        case is UUID.Type: self = .uuid
        case is Data.Type: self = .data
        case is PersistentIdentifier.Type: self = .identifier
        case is any QueryCollectionType.Type: self = .array
        case let raw as any RawRepresentable.Type:
            guard let kind = QueryValueKind(swiftType: rawValueType(raw)) else { return nil }
            self = kind
        case let identifiable as any Identifiable.Type where identifierType(identifiable) == PersistentIdentifier.self:
            self = .identifier
        default:
            return nil
        }
    }
}

private func rawValueType<T: RawRepresentable>(_: T.Type) -> Any.Type { T.RawValue.self }

private func identifierType<T: Identifiable>(_: T.Type) -> Any.Type { T.ID.self }

/// Whether `<` on the type (or its wrapped type) is the order of its query values: true for the
/// types with a ``QueryValueConvertible`` conformance, false for enumerations, whose `<` is their own.
func isOrderedByQueryValue(_ type: Any.Type) -> Bool {
    if let optional = type as? any AnyOptional.Type {
        return isOrderedByQueryValue(optional.optionalWrappedType)
    }
    return type is any QueryValueConvertible.Type && type is any Comparable.Type
}

extension QueryValue {
    /// The query form of a value a predicate captured, or nil when it has none.
    ///
    /// Beyond ``QueryValueConvertible``, this converts raw-value enumerations and collections or
    /// optionals of those; integers beyond `Int64` have none.
    init?(converting value: Any) {
        switch value {
        case let integer as any FixedWidthInteger:
            guard let exact = Int64(exactly: integer) else { return nil }
            self = .integer(exact)
        case let convertible as any QueryValueConvertible where !(value is any QueryCollectionType) && !(value is any AnyOptional):
            self = convertible.queryValue
        case let optional as any AnyOptional:
            guard let wrapped = optional.optionalWrappedValue else { self = .null; return }
            self.init(converting: wrapped)
        case let collection as any QueryCollectionType:
            var elements: [QueryValue] = []
            for element in collection.queryElements {
                guard let converted = QueryValue(converting: element) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        case let raw as any RawRepresentable:
            self.init(converting: raw.rawValue)
        default:
            return nil
        }
    }
}


extension QueryValue {
    /// The query form of a value of one of the common attribute types (`String`, `Int`, `Int64`,
    /// `Double`, `Bool`, `Date`, `UUID`, identifiers and arrays of them, and their optionals), found by its exact
    /// type; nil for any other value. Comparing the type is a pointer comparison, where the casts of
    /// ``init(converting:)`` are conformance lookups, run for every value a snapshot store's filter
    /// or sort reads.
    package init?(exactly value: Any) {
        let type = Swift.type(of: value)
        if type == String.self {
            self = .string(takeExactly(value, as: String.self))
        } else if type == Int.self {
            self = .integer(Int64(takeExactly(value, as: Int.self)))
        } else if type == Double.self {
            self = .double(takeExactly(value, as: Double.self))
        } else if type == Bool.self {
            self = .bool(takeExactly(value, as: Bool.self))
        } else if type == Int64.self {
            self = .integer(takeExactly(value, as: Int64.self))
        } else if type == Date.self {
            self = .date(takeExactly(value, as: Date.self))
        } else if type == UUID.self {
            self = .uuid(takeExactly(value, as: UUID.self))
        } else if type == PersistentIdentifier.self {
            self = .identifier(takeExactly(value, as: PersistentIdentifier.self))
        } else if type == String?.self {
            self = takeExactly(value, as: String?.self).map(QueryValue.string) ?? .null
        } else if type == Int?.self {
            self = takeExactly(value, as: Int?.self).map { .integer(Int64($0)) } ?? .null
        } else if type == Double?.self {
            self = takeExactly(value, as: Double?.self).map(QueryValue.double) ?? .null
        } else if type == Bool?.self {
            self = takeExactly(value, as: Bool?.self).map(QueryValue.bool) ?? .null
        } else if type == Date?.self {
            self = takeExactly(value, as: Date?.self).map(QueryValue.date) ?? .null
        } else if type == UUID?.self {
            self = takeExactly(value, as: UUID?.self).map(QueryValue.uuid) ?? .null
        } else if type == PersistentIdentifier?.self {
            self = takeExactly(value, as: PersistentIdentifier?.self).map(QueryValue.identifier) ?? .null
        } else if type == [PersistentIdentifier].self {
            self = .array(takeExactly(value, as: [PersistentIdentifier].self).map(QueryValue.identifier))
        } else if type == [PersistentIdentifier]?.self {
            self = takeExactly(value, as: [PersistentIdentifier]?.self).map { .array($0.map(QueryValue.identifier)) } ?? .null
        } else {
            return nil
        }
    }
}
