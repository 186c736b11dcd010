import Foundation
import NIOCore
import OpenSwiftDataCore
import OpenSwiftDataSQL
import PostgresNIO

/// How attribute values are written to and read from PostgreSQL, chosen so that PostgreSQL's own
/// `=`, `<` and `ORDER BY` give Swift's results (see `PostgreSQLDialect()`), and text reads back
/// exactly as it was saved:
///
/// | Swift | stored as |
/// |---|---|
/// | `Bool` | `boolean` |
/// | integers | `bigint` (an unsigned value above `Int64.max` is refused) |
/// | `Double`, `Float`, `Date` | `double precision` (dates as seconds since 2001-01-01, exact); NaN and infinities kept |
/// | `String`, `URL` | `text COLLATE "C"`, exactly as given, compared in Unicode NFC (``PostgresCanonicalText``), as queries bind it; a string holding NUL (U+0000), which `text` cannot hold, is refused with ``PostgresStoreError/Code/invalidValue`` (a predicate comparing with one runs in memory) |
/// | `UUID` | `uuid` |
/// | `Data` | `bytea` |
/// | `RawRepresentable` | its raw value, as above |
/// | anything else `Codable` | JSON text with sorted keys, strings exactly as given |
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
        case let string as String: binds.append(try storable(string))
        case let url as URL: binds.append(try storable(url.absoluteString))
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
        case .string(let string):
            guard !holdsNUL(string) else { throw QueryTranslationError(.unsupportedPredicate, "PostgreSQL's text cannot hold NUL, so a string holding one is compared in memory") }
            binds.append(normalized(string))
        case .date(let date): binds.append(date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid): binds.append(uuid)
        case .data(let data): binds.append(ByteBuffer(bytes: data))
        case .identifier, .array: throw QueryTranslationError(.unsupportedPredicate, "\(value) is not bound for PostgreSQL")
        }
    }

    /// Text as stored, exactly as given, refusing NUL, which PostgreSQL's `text` cannot hold
    /// (the server would fail the whole statement with "invalid byte sequence").
    static func storable(_ string: String) throws -> String {
        guard !holdsNUL(string) else {
            throw ValueError("the string holds NUL (U+0000), which PostgreSQL's text cannot hold; remove the character, or keep such text in a Data property")
        }
        return string
    }

    static func holdsNUL(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { $0.contains(0) } ?? string.utf8.contains(0)
    }

    /// Text as queries bind it: composed (NFC), as the SQL compares stored text
    /// (``PostgresCanonicalText``), so that strings compare as Swift's do, by canonical
    /// equivalence. ASCII text is composed already, and Foundation's normalisation of it (through
    /// `NSString`) was most of the cost of binding a string.
    static func normalized(_ string: String) -> String {
        string.utf8.allSatisfy { $0 < 0x80 } ? string : string.precomposedStringWithCanonicalMapping
    }

    static func json(_ value: any Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The value inside an Optional, or nil for a nil one; any other value as it is.
    static func unwrap(_ value: Any) -> Any? {
        guard let optional = value as? any AnyOptional else { return value }
        return optional.optionalWrappedValue.flatMap(unwrap)
    }

    // MARK: Reading

    /// The cell as `type`, the property's declared type (an Optional for optional properties).
    static func value(_ cell: PostgresCell, storage: PostgresColumn.Storage, as type: any Any.Type) throws -> Any {
        try PostgresCellReader(type, storage: storage).read(cell)
    }

    /// A raw-representable type's raw type.
    static func rawType<T: RawRepresentable>(of _: T.Type) -> any Any.Type { T.RawValue.self }

    /// Why a value could not be converted; never holds the value itself.
    struct ValueError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
