import Foundation
import GRDB
import GRDBSQLite
import OpenSwiftDataCore

/// Reads the rows of `SELECT <layout.selectList>` straight from SQLite into a model's value slots,
/// each value as its property's declared type. Planned once per entity: the common attribute types
/// are read with SQLite's typed column functions, without a `DatabaseValue` in between and without
/// looking the property's type up per value. Reading through `DatabaseValue`s and the column and
/// property descriptions cost several times SQLite's own work per row.
struct SQLiteRowReader: Sendable {
    enum Kind: Sendable {
        /// Read with SQLite's typed column functions.
        case common(SQLiteCommonType)
        /// A to-one: the related row's key, as an identifier of the field's `destination`.
        case toOne
        /// Any other attribute type, through ``SQLiteValueCoding/value(_:as:)``.
        case general
    }

    /// Plain values only, so that walking the fields per row retains nothing.
    struct Field: @unchecked Sendable {
        let column: CInt
        let slot: Int
        let kind: Kind
        let isOptional: Bool
        let valueType: any Any.Type
        /// The related entity of a to-one, as an index into `destinations`.
        let destination: Int
    }

    /// A to-many, filled from the keys ``DefaultStore/relatedKeys(of:column:db:)`` reads, at
    /// once or when first read (`DataStoreDeferredToMany`).
    struct ToMany: Sendable {
        let slot: Int
        let column: SQLiteColumn
        var property: String { column.property }
        var destination: String { column.destination ?? "" }
        /// Kept by the destination's to-one key: nothing a save writes depends on reading it.
        var isByInverse: Bool { column.storage == .toManyByInverse }
    }

    let info: ModelTypeInfo
    let fields: [Field]
    /// For each slot, the index in `fields` of the field that reads it, or -1 for a slot no field
    /// reads (to-manys, properties without a column), which starts as nil.
    let fieldOfSlot: [Int]
    let destinations: [String]
    let toMany: [ToMany]

    init(layout table: SQLiteTable, properties: [ModelTypeInfo.Property], info: ModelTypeInfo) {
        self.info = info
        var fields: [Field] = []
        var destinations: [String] = []
        var toMany: [ToMany] = []
        var column: CInt = 1
        for (description, property) in zip(table.columns, properties) {
            switch description.storage {
            case .toManyByInverse, .toManyByJoinTable:
                toMany.append(ToMany(slot: property.index, column: description))
                continue
            case .toOne:
                fields.append(Field(column: column, slot: property.index, kind: .toOne, isOptional: true,
                                    valueType: property.valueType, destination: destinations.count))
                destinations.append(description.destination ?? "")
            default:
                let (kind, isOptional) = Self.kind(of: property.valueType)
                fields.append(Field(column: column, slot: property.index, kind: kind, isOptional: isOptional,
                                    valueType: property.valueType, destination: -1))
            }
            column += CInt(description.columnNames.count)
        }
        self.fields = fields
        var fieldOfSlot = [Int](repeating: -1, count: info.properties.count)
        for (position, field) in fields.enumerated() { fieldOfSlot[field.slot] = position }
        self.fieldOfSlot = fieldOfSlot
        self.destinations = destinations
        self.toMany = toMany
    }

    private static func kind(of type: any Any.Type) -> (Kind, isOptional: Bool) {
        if let (common, optional) = SQLiteCommonType.of(type) { return (.common(common), optional) }
        return (.general, type is any AnyOptional.Type)
    }

    /// The current row's key (column 0) and its slots; to-many slots are left for the caller.
    /// - Throws: ``ValueCodingError`` naming the property whose stored value does not read as its type.
    /// `scopes`: the identifier scope of each of ``destinations``, in this store.
    func read(_ handle: OpaquePointer, scopes: [IdentifierScope]) throws -> (key: Int64, slots: [Any?]) {
        let key = sqlite3_column_int64(handle, 0)
        // Appended in slot order into reserved room: each slot is written once, where filling
        // them with nil first writes each one twice, and
        // `Array(unsafeUninitializedCapacity:)` goes through the standard library's unspecialized
        // allocation, which looks the storage type up.
        var slots: [Any?] = []
        slots.reserveCapacity(fieldOfSlot.count)
        for position in fieldOfSlot {
            guard position >= 0 else {
                slots.append(nil)
                continue
            }
            let field = fields[position]
            do {
                slots.append(try value(of: field, handle, scopes: scopes))
            } catch let error as ValueCodingError {
                throw FieldError(key: key, property: info.properties[field.slot].name, valueType: field.valueType, underlying: error)
            }
        }
        return (key, slots)
    }

    struct FieldError: Error {
        let key: Int64
        let property: String
        let valueType: any Any.Type
        let underlying: ValueCodingError
    }

    private func value(of field: Field, _ handle: OpaquePointer, scopes: [IdentifierScope]) throws -> Any {
        let type = sqlite3_column_type(handle, field.column)
        if type == SQLITE_NULL {
            if field.isOptional {
                // The common types' nil without asking for the type's Optional conformance.
                switch field.kind {
                case .toOne: return PersistentIdentifier?.none as Any
                case .common(let common): return common.none
                case .general:
                    if let optional = field.valueType as? any AnyOptional.Type { return optional.nilValue }
                }
            }
            throw ValueCodingError("the column holds NULL but \(field.valueType) is not optional")
        }
        switch field.kind {
        case .common(.string):
            return SQLiteCommonType.declared(try Self.text(handle, field.column, type), optional: field.isOptional)
        case .common(.int):
            guard type == SQLITE_INTEGER else { return try general(field, handle) }
            return SQLiteCommonType.declared(Int(sqlite3_column_int64(handle, field.column)), optional: field.isOptional)
        case .common(.double):
            return SQLiteCommonType.declared(try Self.double(handle, field.column, type), optional: field.isOptional)
        case .common(.bool):
            guard type == SQLITE_INTEGER else { throw ValueCodingError("expected an INTEGER") }
            return SQLiteCommonType.declared(sqlite3_column_int64(handle, field.column) != 0, optional: field.isOptional)
        case .common(.date):
            let seconds = try Self.double(handle, field.column, type)
            return SQLiteCommonType.declared(Date(timeIntervalSinceReferenceDate: seconds), optional: field.isOptional)
        case .common(.uuid):
            guard let value = UUID(canonicalString: try Self.text(handle, field.column, type)) else {
                throw ValueCodingError("the text is not a UUID")
            }
            return SQLiteCommonType.declared(value, optional: field.isOptional)
        case .toOne:
            guard type == SQLITE_INTEGER else { throw ValueCodingError("expected an INTEGER") }
            let key = sqlite3_column_int64(handle, field.column)
            return Optional(PersistentIdentifier(scope: scopes[field.destination], primaryKey: .integer(key))) as Any
        case .general:
            return try general(field, handle)
        }
    }

    private func general(_ field: Field, _ handle: OpaquePointer) throws -> Any {
        try SQLiteValueCoding.value(DatabaseValue(sqliteStatement: handle, index: field.column), as: field.valueType)
    }

    private static func text(_ handle: OpaquePointer, _ column: CInt, _ type: CInt) throws -> String {
        guard type == SQLITE_TEXT, let bytes = sqlite3_column_text(handle, column) else { throw ValueCodingError("expected TEXT") }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private static func double(_ handle: OpaquePointer, _ column: CInt, _ type: CInt) throws -> Double {
        switch type {
        case SQLITE_FLOAT, SQLITE_INTEGER: return sqlite3_column_double(handle, column)
        case SQLITE_TEXT:
            switch try text(handle, column, type) {
            case "NaN": return .nan
            case "negative zero": return -0.0
            default: throw ValueCodingError("expected a REAL")
            }
        default: throw ValueCodingError("expected a REAL")
        }
    }
}
