import Foundation
import GRDB
import OpenSwiftDataCore
import OpenSwiftDataSQL

/// How attribute values are written to and read from SQLite. The representations are chosen so
/// that SQLite's own `=`, `<` and `ORDER BY` give Swift's results (see ``SQLiteQueryRenderer``),
/// and text reads back exactly as it was saved:
///
/// | Swift | stored as |
/// |---|---|
/// | `Bool` | INTEGER 0 or 1 |
/// | integers | INTEGER; a `UInt`/`UInt64` above `Int64.max` as an 8-byte big-endian BLOB, which sorts after every INTEGER |
/// | `Double`, `Float` | REAL; NaN as the TEXT `NaN` (SQLite turns a bound NaN into NULL) and `-0.0` as the TEXT `negative zero` (a REAL column stores an integral value, or a number's text, as an integer, which drops the sign). Queries on a column that has held NaN run in memory; a column that has held `-0.0` is compared as `CAST(… AS REAL)`, which reads the TEXT as `0.0` (``SQLiteNaNFlags``). A uniqueness constraint on a `Double` tells `-0.0` from `0.0` |
/// | `String` | TEXT, exactly as given. Queries bind text in Unicode NFC, whose byte order is Swift's `<`; a column that has held text not in NFC is flagged and compared as `osd_nfc(column)` from then on (``SQLiteNaNFlags``), so canonically equivalent spellings stay `==` |
/// | `Date` | REAL seconds since 2001-01-01 00:00:00 UTC (`timeIntervalSinceReferenceDate`, exact) |
/// | `UUID` | TEXT, `uuidString` (upper case; its order is the bytes' order, as Swift's `<`) |
/// | `URL` | TEXT, `absoluteString` |
/// | `Data` | BLOB |
/// | `RawRepresentable` | its raw value, as above |
/// | anything else `Codable` (structs, arrays, sets, dictionaries) | JSON TEXT with sorted keys, strings exactly as given (flagged as TEXT is) |
enum SQLiteValueCoding {
    /// The declared SQL type of a column holding values of `type` (optionals unwrapped).
    static func storage(for type: any Any.Type) -> SQLiteColumn.Storage {
        let type = (type as? any AnyOptional.Type)?.optionalWrappedType ?? type
        switch type {
        case is Bool.Type, is any FixedWidthInteger.Type: return .integer
        case is Double.Type, is Float.Type, is Date.Type: return .real
        case is String.Type, is UUID.Type, is URL.Type: return .text
        case is Data.Type: return .blob
        case let raw as any RawRepresentable.Type:
            let rawStorage = storage(for: rawType(of: raw))
            return rawStorage == .json ? .json : rawStorage
        default: return .json
        }
    }

    /// Whether a TEXT or JSON column holding `type` may hold text not in NFC, which queries then
    /// compare through `osd_nfc` (``SQLiteNaNFlags``): not a `UUID`'s, which is ASCII, so a
    /// lookup by one never reads the flags.
    static func mayHoldUnnormalizedText(_ type: any Any.Type, storage: SQLiteColumn.Storage) -> Bool {
        guard storage == .text || storage == .json else { return false }
        let type = (type as? any AnyOptional.Type)?.optionalWrappedType ?? type
        return !(type is UUID.Type)
    }

    // MARK: Writing

    static func databaseValue(_ value: Any) throws -> DatabaseValue {
        if let common = commonDatabaseValue(value) { return common }
        guard let value = unwrapOptional(value) else { return .null }
        switch value {
        case let bool as Bool:
            return (bool ? 1 : 0 as Int64).databaseValue
        case let integer as any FixedWidthInteger:
            if let exact = Int64(exactly: integer) { return exact.databaseValue }
            return bigUnsigned(UInt64(truncatingIfNeeded: integer))
        case let double as Double:
            return real(double)
        case let float as Float:
            return real(Double(float))
        case let string as String:
            return string.databaseValue
        case let date as Date:
            if let problem = StorableValues.problem(with: date) { throw UnstorableValueError(problem) }
            return date.timeIntervalSinceReferenceDate.databaseValue
        case let uuid as UUID:
            return uuid.canonicalString.databaseValue
        case let url as URL:
            return url.absoluteString.databaseValue
        case let data as Data:
            return data.databaseValue
        case let raw as any RawRepresentable where storage(for: type(of: raw)) != .json:
            return try databaseValue(raw.rawValue)
        case let encodable as any Encodable:
            return try json(encodable).databaseValue
        default:
            throw ValueCodingError("values of type \(type(of: value)) are not Codable")
        }
    }

    /// The common types (``SQLiteCommonType``), as `databaseValue` stores them: unwrapping an
    /// Optional and casting to `any FixedWidthInteger` are conformance lookups, and even trying
    /// the plain casts one after the other adds up, on every value. A nil Optional falls
    /// through to the general path.
    private static func commonDatabaseValue(_ value: Any) -> DatabaseValue? {
        guard let (common, optional) = SQLiteCommonType.of(type(of: value)) else { return nil }
        switch common {
        case .string: return SQLiteCommonType.present(value, as: String.self, optional: optional).map(\.databaseValue)
        case .int: return SQLiteCommonType.present(value, as: Int.self, optional: optional).map { Int64($0).databaseValue }
        case .double: return SQLiteCommonType.present(value, as: Double.self, optional: optional).map(real)
        case .bool: return SQLiteCommonType.present(value, as: Bool.self, optional: optional).map { ($0 ? 1 : 0 as Int64).databaseValue }
        case .uuid: return SQLiteCommonType.present(value, as: UUID.self, optional: optional).map { $0.canonicalString.databaseValue }
        // A date no store keeps falls through to the general path, which refuses it.
        case .date: return SQLiteCommonType.present(value, as: Date.self, optional: optional).flatMap { StorableValues.isStorable($0) ? $0.timeIntervalSinceReferenceDate.databaseValue : nil }
        }
    }

    /// JSON text of a value, its strings as given. Its NFC (``Swift/String/nfc``) is the JSON of
    /// the NFC strings: JSON's punctuation is ASCII and never composes with what follows it.
    static func json(_ value: any Encodable) throws -> String {
        let data = try jsonEncoder.encode(value)
        return String(decoding: data, as: UTF8.self)
    }

    /// A number as a REAL, or as the TEXT that keeps what a REAL column loses: NaN and `-0.0`.
    private static func real(_ number: Double) -> DatabaseValue {
        if number.isNaN { return nanText }
        if number == 0, number.sign == .minus { return negativeZeroText }
        return number.databaseValue
    }

    private static let nanText = "NaN".databaseValue
    private static let negativeZeroText = "negative zero".databaseValue

    /// Whether a REAL column's TEXT is the one `-0.0` is stored as.
    static func isNegativeZeroText(_ text: String) -> Bool { text == "negative zero" }

    private static func bigUnsigned(_ value: UInt64) -> DatabaseValue {
        withUnsafeBytes(of: value.bigEndian) { Data($0) }.databaseValue
    }

    private static var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return encoder
    }

    private static var jsonDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
        return decoder
    }

    // MARK: Reading

    /// The stored value as `type`, the property's declared type (an Optional for optional properties).
    static func value(_ stored: DatabaseValue, as type: any Any.Type) throws -> Any {
        if let common = try commonValue(stored, as: type) { return common }
        if let optional = type as? any AnyOptional.Type {
            if stored.isNull { return optional.nilValue }
            return try wrap(try value(stored, as: optional.optionalWrappedType), as: type)
        }
        if stored.isNull { throw ValueCodingError("the column holds NULL but \(type) is not optional") }
        switch type {
        case is Bool.Type:
            return try integer(stored) != 0
        case let integerType as any FixedWidthInteger.Type:
            return try integer(stored, as: integerType)
        case is Double.Type:
            return try double(stored)
        case is Float.Type:
            return Float(try double(stored))
        case is String.Type:
            return try text(stored)
        case is Date.Type:
            return Date(timeIntervalSinceReferenceDate: try double(stored))
        case is UUID.Type:
            return try uuid(stored)
        case is URL.Type:
            guard let url = URL(string: try text(stored)) else { throw ValueCodingError("the text is not a URL") }
            return url
        case is Data.Type:
            guard case .blob(let data) = stored.storage else { throw ValueCodingError("expected a BLOB") }
            return data
        case let representable as any RawRepresentable.Type where storage(for: representable) != .json:
            return try rawRepresentable(representable, from: try value(stored, as: rawType(of: representable)))
        case let decodable as any Decodable.Type:
            return try jsonDecoder.decodeChecked(decodable, from: Data(try text(stored).utf8))
        default:
            throw ValueCodingError("values of type \(type) are not Codable")
        }
    }

    /// The common declared types (``SQLiteCommonType``): `value(_:as:)` otherwise asks whether the
    /// type is an Optional and then tries protocol casts, each a conformance lookup. Nil for any
    /// other type.
    private static func commonValue(_ stored: DatabaseValue, as type: any Any.Type) throws -> Any? {
        guard let (common, optional) = SQLiteCommonType.of(type) else { return nil }
        if stored.isNull {
            if optional { return common.none }
            throw ValueCodingError("the column holds NULL but \(type) is not optional")
        }
        switch common {
        case .string: return SQLiteCommonType.declared(try text(stored), optional: optional)
        case .int: return SQLiteCommonType.declared(try integer(stored, as: Int.self), optional: optional)
        case .double: return SQLiteCommonType.declared(try double(stored), optional: optional)
        case .bool: return SQLiteCommonType.declared(try integer(stored) != 0, optional: optional)
        case .date: return SQLiteCommonType.declared(Date(timeIntervalSinceReferenceDate: try double(stored)), optional: optional)
        case .uuid: return SQLiteCommonType.declared(try uuid(stored), optional: optional)
        }
    }

    private static func uuid(_ stored: DatabaseValue) throws -> UUID {
        guard let uuid = UUID(canonicalString: try text(stored)) else { throw ValueCodingError("the text is not a UUID") }
        return uuid
    }

    private static func integer(_ stored: DatabaseValue) throws -> Int64 {
        guard case .int64(let value) = stored.storage else { throw ValueCodingError("expected an INTEGER") }
        return value
    }

    private static func integer<I: FixedWidthInteger>(_ stored: DatabaseValue, as _: I.Type) throws -> I {
        switch stored.storage {
        case .int64(let value):
            if let exact = I(exactly: value) { return exact }
        case .blob(let data) where data.count == 8:
            let big = data.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if let exact = I(exactly: big) { return exact }
        default:
            throw ValueCodingError("expected an INTEGER")
        }
        throw ValueCodingError("the stored integer does not fit in \(I.self)")
    }

    private static func double(_ stored: DatabaseValue) throws -> Double {
        switch stored.storage {
        case .double(let value): return value
        case .int64(let value): return Double(value)
        case .string("NaN"): return .nan
        case .string("negative zero"): return -0.0
        default: throw ValueCodingError("expected a REAL")
        }
    }

    private static func text(_ stored: DatabaseValue) throws -> String {
        guard case .string(let value) = stored.storage else { throw ValueCodingError("expected TEXT") }
        return value
    }

    private static func rawRepresentable<R: RawRepresentable>(_: R.Type, from raw: Any) throws -> R {
        guard let raw = raw as? R.RawValue, let value = R(rawValue: raw) else {
            throw ValueCodingError("the stored raw value is not a case of \(R.self)")
        }
        return value
    }

    private static func rawType<T: RawRepresentable>(of _: T.Type) -> any Any.Type { T.RawValue.self }

    /// `value` boxed as the Optional type `optionalType`.
    private static func wrap(_ value: Any, as optionalType: any Any.Type) throws -> Any {
        func open<T>(_: T.Type) -> Any? { (value as? T).map { $0 as Any } }
        guard let wrapped = open(optionalType) else { throw ValueCodingError("\(type(of: value)) is not \(optionalType)") }
        return wrapped
    }
}

/// Why a value could not be converted; the store turns it into a ``SQLiteStoreError`` naming the
/// entity and property. Never holds the value itself.
struct ValueCodingError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    /// The string in Unicode NFC, the form queries bind and compare so that SQLite's byte order
    /// and equality match Swift's `String` comparison. ASCII text is already NFC: skip Foundation.
    var nfc: String {
        isASCII ? self : precomposedStringWithCanonicalMapping
    }

    /// Whether the string is in NFC, as stored text must be for SQLite's `=` and `<` to be Swift's.
    /// Text whose scalars are all below U+0300, the first combining mark, is NFC already: no byte
    /// of its UTF-8 reaches 0xCC, the lead byte of U+0300.
    var isNFC: Bool {
        if isASCII || utf8.allSatisfy({ $0 < 0xCC }) { return true }
        return unicodeScalars.elementsEqual(precomposedStringWithCanonicalMapping.unicodeScalars)
    }

    /// Eight bytes at a time over the contiguous UTF-8: `utf8.allSatisfy` goes byte by byte
    /// through the view's index checks.
    private var isASCII: Bool {
        var string = self
        return string.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return true }
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= bytes.count {
                if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                offset += 8
            }
            while offset < bytes.count {
                if bytes[offset] >= 0x80 { return false }
                offset += 1
            }
            return true
        }
    }
}
