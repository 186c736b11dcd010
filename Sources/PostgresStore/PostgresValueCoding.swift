import Foundation
import NIOCore
import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// How attribute values are written to and read from PostgreSQL, chosen so that PostgreSQL's own
/// `=`, `<` and `ORDER BY` give Swift's results (see `SQLDialect.postgreSQL`):
///
/// | Swift | stored as |
/// |---|---|
/// | `Bool` | `boolean` |
/// | integers | `bigint` (an unsigned value above `Int64.max` is refused) |
/// | `Double`, `Float`, `Date` | `double precision` (dates as seconds since 2001-01-01, exact); NaN and infinities kept |
/// | `String`, `URL` | `text COLLATE "C"`, in Unicode NFC |
/// | `UUID` | `uuid` |
/// | `Data` | `bytea` |
/// | `RawRepresentable` | its raw value, as above |
/// | anything else `Codable` | JSON text with sorted keys, strings in NFC |
enum PostgresValueCoding {
    static func storage(for type: any Any.Type) -> PostgresColumn.Storage {
        let type = (type as? any AnyOptional.Type)?.optionalWrappedType ?? type
        switch type {
        case is Bool.Type: return .boolean
        case is any FixedWidthInteger.Type: return .integer
        case is Double.Type, is Float.Type, is Date.Type: return .real
        case is String.Type, is URL.Type: return .text
        case is UUID.Type: return .uuid
        case is Data.Type: return .bytes
        case let raw as any RawRepresentable.Type:
            let rawStorage = storage(for: rawType(of: raw))
            return rawStorage == .json ? .json : rawStorage
        default: return .json
        }
    }

    // MARK: Writing

    /// Appends a model's value (`nil` or a nil Optional as NULL).
    static func bind(_ value: Any?, into binds: inout PostgresBindings) throws {
        guard let value, let present = unwrap(value) else { binds.appendNull(); return }
        switch present {
        case let bool as Bool: binds.append(bool)
        case let integer as any FixedWidthInteger:
            guard let exact = Int64(exactly: integer) else { throw ValueError("the integer \(type(of: integer)) value is above Int64.max, which PostgreSQL's bigint cannot hold") }
            binds.append(exact)
        case let double as Double: binds.append(double)
        case let float as Float: binds.append(Double(float))
        case let date as Date:
            if let problem = StorableValues.problem(with: date) { throw ValueError(problem) }
            binds.append(date.timeIntervalSinceReferenceDate)
        case let string as String: binds.append(string.precomposedStringWithCanonicalMapping)
        case let url as URL: binds.append(url.absoluteString.precomposedStringWithCanonicalMapping)
        case let uuid as UUID: binds.append(uuid)
        case let data as Data: binds.append(ByteBuffer(bytes: data))
        case let raw as any RawRepresentable where storage(for: type(of: raw)) != .json: try bind(raw.rawValue, into: &binds)
        case let encodable as any Encodable: binds.append(try json(encodable))
        default: throw ValueError("values of type \(type(of: present)) are not Codable")
        }
    }

    /// Appends a query's constant as the column it is compared with holds it.
    static func bind(_ value: QueryValue, into binds: inout PostgresBindings) throws {
        switch value {
        case .null: binds.appendNull()
        case .bool(let bool): binds.append(bool)
        case .integer(let integer): binds.append(integer)
        case .double(let double): binds.append(double)
        case .string(let string): binds.append(string.precomposedStringWithCanonicalMapping)
        case .date(let date): binds.append(date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid): binds.append(uuid)
        case .data(let data): binds.append(ByteBuffer(bytes: data))
        case .identifier, .array: throw QueryTranslationError(.unsupportedPredicate, "\(value) is not bound for PostgreSQL")
        }
    }

    static func json(_ value: any Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return String(decoding: try encoder.encode(value), as: UTF8.self).precomposedStringWithCanonicalMapping
    }

    /// The value inside an Optional, or nil for a nil one; any other value as it is.
    static func unwrap(_ value: Any) -> Any? {
        guard let optional = value as? any AnyOptional else { return value }
        return optional.optionalWrappedValue.flatMap(unwrap)
    }

    // MARK: Reading

    /// The cell as `type`, the property's declared type (an Optional for optional properties).
    static func value(_ cell: PostgresCell, storage: PostgresColumn.Storage, as type: any Any.Type) throws -> Any {
        if let optional = type as? any AnyOptional.Type {
            if cell.bytes == nil { return optional.nilValue }
            return try wrap(try value(cell, storage: storage, as: optional.optionalWrappedType), as: type)
        }
        guard cell.bytes != nil else { throw ValueError("the column holds NULL but \(type) is not optional") }
        switch type {
        case is Bool.Type: return try cell.decode(Bool.self)
        case let integerType as any FixedWidthInteger.Type:
            let stored = try cell.decode(Int64.self)
            guard let exact = integerType.init(exactly: stored) else { throw ValueError("the stored integer does not fit in \(integerType)") }
            return exact
        case is Double.Type: return try cell.decode(Double.self)
        case is Float.Type: return Float(try cell.decode(Double.self))
        case is Date.Type: return Date(timeIntervalSinceReferenceDate: try cell.decode(Double.self))
        case is String.Type: return try cell.decode(String.self)
        case is URL.Type:
            guard let url = URL(string: try cell.decode(String.self)) else { throw ValueError("the text is not a URL") }
            return url
        case is UUID.Type: return try cell.decode(UUID.self)
        case is Data.Type: return Data(buffer: try cell.decode(ByteBuffer.self))
        case let representable as any RawRepresentable.Type where storage != .json:
            return try rawRepresentable(representable, from: try value(cell, storage: storage, as: rawType(of: representable)))
        case let decodable as any Decodable.Type:
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            return try decoder.decodeChecked(decodable, from: Data(try cell.decode(String.self).utf8))
        default:
            throw ValueError("values of type \(type) are not Codable")
        }
    }

    private static func rawRepresentable<R: RawRepresentable>(_: R.Type, from raw: Any) throws -> R {
        guard let raw = raw as? R.RawValue, let value = R(rawValue: raw) else {
            throw ValueError("the stored raw value is not a case of \(R.self)")
        }
        return value
    }

    private static func rawType<T: RawRepresentable>(of _: T.Type) -> any Any.Type { T.RawValue.self }

    private static func wrap(_ value: Any, as optionalType: any Any.Type) throws -> Any {
        func open<T>(_: T.Type) -> Any? { (value as? T).map { $0 as Any } }
        guard let wrapped = open(optionalType) else { throw ValueError("\(type(of: value)) is not \(optionalType)") }
        return wrapped
    }

    /// Why a value could not be converted; never holds the value itself.
    struct ValueError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
