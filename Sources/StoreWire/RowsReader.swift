import Foundation
import OpenSwiftData

/// Reads an answer to `rows` in the form the server writes it (``RowsResponse/json()``), straight
/// from its bytes: `JSONDecoder` builds a tree of the whole answer first and decodes each value
/// through a container, most of a client's work for a fetch. Values of other types, and
/// identifiers, are decoded by the wire decoder one at a time.
///
/// Anything it does not expect ends the read with nil, and ``RowsResponse/decodeRows(from:layout:)``
/// decodes the answer with `JSONDecoder`, whose errors say what is wrong.
package struct RowsReader: JSONScanning {
    let bytes: [UInt8]
    var offset = 0
    private let layout: DataStoreRowLayout
    private let decoder = WireCoding.decoder()

    package init(_ data: Data, layout: DataStoreRowLayout) {
        bytes = Array(data)
        self.layout = layout
    }

    /// The rows, or nil when the answer is not in the form the server writes.
    package mutating func read() -> [DataStoreRow]? {
        try? rows()
    }

    private mutating func rows() throws -> [DataStoreRow] {
        try expect("{")
        guard try key() == "entityName", try string() == layout.entityName else { throw UnexpectedJSON() }
        try expect(",")
        guard try key() == "storeIdentifier" else { throw UnexpectedJSON() }
        let storeIdentifier = try string()
        try expect(",")
        guard try key() == "properties", try strings() == layout.propertyNames else { throw UnexpectedJSON() }
        try expect(",")
        guard try key() == "rows" else { throw UnexpectedJSON() }
        let scope = IdentifierScope.of(entityName: layout.entityName, storeIdentifier: storeIdentifier)
        let columns = layout.info.properties.map(Column.init)
        var rows: [DataStoreRow] = []
        try expect("[")
        if try !next("]") {
            repeat {
                try expect("[")
                let identifier = try self.identifier(in: scope)
                var values: [Any?] = []
                values.reserveCapacity(columns.count)
                for column in columns {
                    try expect(",")
                    values.append(try value(of: column))
                }
                try expect("]")
                rows.append(DataStoreRow(persistentIdentifier: identifier, values: values))
            } while try next(",")
            try expect("]")
        }
        try expect("}")
        skipWhitespace()
        guard offset == bytes.count else { throw UnexpectedJSON() }
        return rows
    }

    private mutating func identifier(in scope: IdentifierScope) throws -> PersistentIdentifier {
        skipWhitespace()
        switch peek {
        case UInt8(ascii: "\""): return PersistentIdentifier(scope: scope, primaryKey: .string(try string()))
        case UInt8(ascii: "{"): return try decoded(PersistentIdentifier.self, with: decoder)
        default:
            guard let key = Int64(try number()) else { throw UnexpectedJSON() }
            return PersistentIdentifier(scope: scope, primaryKey: .integer(key))
        }
    }

    /// How one property's values are read, decided once per answer. A class: each value read
    /// takes its column, and copying the struct copied the property's description every time.
    private final class Column {
        enum Kind { case string, int, int64, int32, double, float, bool, date, uuid, toOne, toMany, other }
        let property: ModelTypeInfo.Property
        let kind: Kind
        let optional: (any AnyOptional.Type)?
        let decodable: (any Decodable.Type)?

        init(_ property: ModelTypeInfo.Property) {
            self.property = property
            optional = property.valueType as? any AnyOptional.Type
            let base = optional?.optionalWrappedType ?? property.valueType
            decodable = base as? any Decodable.Type
            kind = switch property.shape {
            case .toOne: .toOne
            case .toMany: .toMany
            case .attribute:
                switch base {
                case is String.Type: .string
                case is Int.Type: .int
                case is Int64.Type: .int64
                case is Int32.Type: .int32
                case is Double.Type: .double
                case is Float.Type: .float
                case is Bool.Type: .bool
                case is Date.Type: .date
                case is UUID.Type: .uuid
                default: .other
                }
            }
        }
    }

    /// One value as `RowsBody` decodes it: an attribute as its declared type (optional ones wrapped),
    /// a to-one as an optional identifier, a to-many as an optional array of identifiers.
    private mutating func value(of column: Column) throws -> Any {
        let isNull = try next("null")
        switch column.kind {
        case .toOne:
            let identifier: PersistentIdentifier? = isNull ? nil : try decoded(PersistentIdentifier.self, with: decoder)
            return identifier as Any
        case .toMany:
            let identifiers: [PersistentIdentifier]? = isNull ? (column.property.isOptional ? nil : []) : try decoded([PersistentIdentifier].self, with: decoder)
            return identifiers as Any
        default:
            break
        }
        if isNull {
            if let optional = column.optional { return optional.nilValue }
            guard let defaultValue = column.property.defaultValue else { throw UnexpectedJSON() }
            return defaultValue
        }
        let wraps = column.optional != nil
        switch column.kind {
        case .string: return wrap(try string(), wraps)
        case .int: return wrap(try parsed { Int($0) }, wraps)
        case .int64: return wrap(try parsed { Int64($0) }, wraps)
        case .int32: return wrap(try parsed { Int32($0) }, wraps)
        case .double: return wrap(try floatingPoint(Double.self), wraps)
        case .float: return wrap(try floatingPoint(Float.self), wraps)
        case .bool:
            if try next("true") { return wrap(true, wraps) }
            guard try next("false") else { throw UnexpectedJSON() }
            return wrap(false, wraps)
        case .date: return wrap(Date(timeIntervalSinceReferenceDate: try parsed { Double($0) }), wraps)
        case .uuid:
            guard let uuid = UUID(canonicalString: try string()) else { throw UnexpectedJSON() }
            return wrap(uuid, wraps)
        case .toOne, .toMany, .other:
            guard let decodable = column.decodable else { throw UnexpectedJSON() }
            func decode<Value: Decodable>(_: Value.Type) throws -> Any { wrap(try decoded(Value.self, with: decoder), wraps) }
            return try decode(decodable)
        }
    }

    private func wrap<Value>(_ value: Value, _ wraps: Bool) -> Any {
        wraps ? Optional(value) as Any : value
    }

    private mutating func parsed<Value>(_ make: (Substring) -> Value?) throws -> Value {
        guard let value = make(Substring(try number())) else { throw UnexpectedJSON() }
        return value
    }
}
