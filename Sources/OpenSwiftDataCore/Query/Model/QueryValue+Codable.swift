import Foundation

/// Encodes as a one-key object naming the case, e.g. `{"string": "Paris"}` or `{"null": true}`.
///
/// Dates, data and non-finite doubles are spelled out here rather than left to the coder's
/// strategies, so a query survives a trip through any `JSONEncoder`/`JSONDecoder` pair unchanged:
/// dates as seconds since the reference date, data as Base64, NaN and infinities as
/// `"nan"`, `"+infinity"`, `"-infinity"`.
extension QueryValue: Codable {
    private enum CodingKeys: String, CodingKey {
        case null, bool, integer, double, string, date, uuid, data, identifier, array
    }

    /// Decodes a value from an object of one key naming its kind, such as `{"integer": 3}`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let key = container.allKeys.first, container.allKeys.count == 1 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "A QueryValue is an object with exactly one key naming its case."))
        }
        switch key {
        case .null: self = .null
        case .bool: self = .bool(try container.decode(Bool.self, forKey: key))
        case .integer: self = .integer(try container.decode(Int64.self, forKey: key))
        case .double: self = .double(try Self.decodeDouble(from: container, forKey: key))
        case .string: self = .string(try container.decode(String.self, forKey: key))
        case .date: self = .date(Date(timeIntervalSinceReferenceDate: try Self.decodeDouble(from: container, forKey: key)))
        case .uuid: self = .uuid(try container.decode(UUID.self, forKey: key))
        case .data:
            guard let data = Data(base64Encoded: try container.decode(String.self, forKey: key)) else {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "Expected Base64 text.")
            }
            self = .data(data)
        case .identifier: self = .identifier(try container.decode(PersistentIdentifier.self, forKey: key))
        case .array: self = .array(try container.decode([QueryValue].self, forKey: key))
        }
    }

    /// Encodes the value as an object of one key naming its kind, such as `{"integer": 3}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .null: try container.encode(true, forKey: .null)
        case .bool(let value): try container.encode(value, forKey: .bool)
        case .integer(let value): try container.encode(value, forKey: .integer)
        case .double(let value): try Self.encode(value, to: &container, forKey: .double)
        case .string(let value): try container.encode(value, forKey: .string)
        case .date(let value): try Self.encode(value.timeIntervalSinceReferenceDate, to: &container, forKey: .date)
        case .uuid(let value): try container.encode(value, forKey: .uuid)
        case .data(let value): try container.encode(value.base64EncodedString(), forKey: .data)
        case .identifier(let value): try container.encode(value, forKey: .identifier)
        case .array(let value): try container.encode(value, forKey: .array)
        }
    }

    private static func encode(_ value: Double, to container: inout KeyedEncodingContainer<CodingKeys>, forKey key: CodingKeys) throws {
        switch value {
        case _ where value.isNaN: try container.encode("nan", forKey: key)
        case .infinity: try container.encode("+infinity", forKey: key)
        case -.infinity: try container.encode("-infinity", forKey: key)
        default: try container.encode(value, forKey: key)
        }
    }

    private static func decodeDouble(from container: KeyedDecodingContainer<CodingKeys>, forKey key: CodingKeys) throws -> Double {
        guard let spelled = try? container.decode(String.self, forKey: key) else {
            return try container.decode(Double.self, forKey: key)
        }
        switch spelled {
        case "nan": return .nan
        case "+infinity": return .infinity
        case "-infinity": return -.infinity
        default: throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "Expected a number, \"nan\", \"+infinity\" or \"-infinity\".")
        }
    }
}
