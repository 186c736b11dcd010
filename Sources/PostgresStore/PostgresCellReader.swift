import Foundation
import OpenSwiftDataCore
import PostgresNIO

/// How a column's cells are read as its property's declared type, worked out once per column:
/// asking a type, per cell, which of a dozen kinds it is (a protocol conformance check among
/// them) cost more than decoding the cell.
indirect enum PostgresCellReader: @unchecked Sendable {
    case bool
    case int
    case int64
    case integer(any FixedWidthInteger.Type)
    case double
    case float
    case date
    case string
    case url
    case uuid
    case data
    case rawRepresentable(any RawRepresentable.Type, raw: PostgresCellReader)
    case json(any Decodable.Type)
    /// An Optional's: NULL is its `nil`; any other cell its wrapped type's value, wrapped.
    case optional(any AnyOptional.Type, wrapped: PostgresCellReader)
    case unsupported(any Any.Type)

    init(_ type: any Any.Type, storage: PostgresColumn.Storage) {
        if let optional = type as? any AnyOptional.Type {
            self = .optional(optional, wrapped: PostgresCellReader(optional.optionalWrappedType, storage: storage))
            return
        }
        switch type {
        case is Bool.Type: self = .bool
        case is Int.Type: self = .int
        case is Int64.Type: self = .int64
        case let integerType as any FixedWidthInteger.Type: self = .integer(integerType)
        case is Double.Type: self = .double
        case is Float.Type: self = .float
        case is Date.Type: self = .date
        case is String.Type: self = .string
        case is URL.Type: self = .url
        case is UUID.Type: self = .uuid
        case is Data.Type: self = .data
        case let representable as any RawRepresentable.Type where storage != .json:
            self = .rawRepresentable(representable, raw: PostgresCellReader(PostgresValueCoding.rawType(of: representable), storage: storage))
        case let decodable as any Decodable.Type: self = .json(decodable)
        default: self = .unsupported(type)
        }
    }

    /// The cell as the reader's type (an Optional for optional properties).
    func read(_ cell: PostgresCell) throws -> Any {
        if case .optional(let optional, let wrapped) = self {
            guard cell.bytes != nil else { return optional.nilValue }
            return try Self.wrap(try wrapped.read(cell), as: optional)
        }
        guard cell.bytes != nil else { throw PostgresValueCoding.ValueError("the column holds NULL but \(typeName) is not optional") }
        return try readPresent(cell)
    }

    private func readPresent(_ cell: PostgresCell) throws -> Any {
        switch self {
        case .bool: return try cell.decode(Bool.self)
        // `Int` is 64 bits on every platform the store runs on.
        case .int: return Int(try cell.decode(Int64.self))
        case .int64: return try cell.decode(Int64.self)
        case .integer(let integerType):
            let stored = try cell.decode(Int64.self)
            guard let exact = integerType.init(exactly: stored) else { throw PostgresValueCoding.ValueError("the stored integer does not fit in \(integerType)") }
            return exact
        case .double: return try cell.decode(Double.self)
        case .float: return Float(try cell.decode(Double.self))
        case .date: return Date(timeIntervalSinceReferenceDate: try cell.decode(Double.self))
        case .string: return try cell.decode(String.self)
        case .url:
            guard let url = URL(string: try cell.decode(String.self)) else { throw PostgresValueCoding.ValueError("the text is not a URL") }
            return url
        case .uuid: return try cell.decode(UUID.self)
        case .data: return Data(buffer: try cell.decode(ByteBuffer.self))
        case .rawRepresentable(let representable, let raw):
            return try Self.rawRepresentable(representable, from: try raw.read(cell))
        case .json(let decodable):
            let decoder = JSONDecoder()
            decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")
            return try decoder.decodeChecked(decodable, from: Data(try cell.decode(String.self).utf8))
        case .unsupported(let type):
            throw PostgresValueCoding.ValueError("values of type \(type) are not Codable")
        case .optional:
            return try read(cell)
        }
    }

    private var typeName: String {
        switch self {
        case .integer(let type): "\(type)"
        case .rawRepresentable(let type, _): "\(type)"
        case .json(let type): "\(type)"
        case .unsupported(let type): "\(type)"
        default: "the property's type"
        }
    }

    private static func rawRepresentable<R: RawRepresentable>(_: R.Type, from raw: Any) throws -> R {
        guard let raw = raw as? R.RawValue, let value = R(rawValue: raw) else {
            throw PostgresValueCoding.ValueError("the stored raw value is not a case of \(R.self)")
        }
        return value
    }

    private static func wrap(_ value: Any, as optionalType: any Any.Type) throws -> Any {
        func open<T>(_: T.Type) -> Any? { (value as? T).map { $0 as Any } }
        guard let wrapped = open(optionalType) else { throw PostgresValueCoding.ValueError("\(type(of: value)) is not \(optionalType)") }
        return wrapped
    }
}
