import Foundation
import OpenSwiftData

/// A stored property value as the pages show it, and as queries compare it.
enum StoredValue {
    /// The value inside an `Optional`, or nil for `nil`; any other value as it is.
    static func unwrapped(_ value: Any?) -> Any? {
        guard let value else { return nil }
        if let optional = value as? any AnyOptional {
            return unwrapped(optional.optionalWrappedValue)
        }
        return value
    }

    static func queryValue(_ value: Any?) -> QueryValue? {
        guard let value = unwrapped(value) else { return .null }
        if let convertible = value as? any QueryValueConvertible { return convertible.queryValue }
        if let raw = value as? any RawRepresentable { return queryValue(raw.rawValue) }
        return nil
    }

    /// The value as text: strings as they are, numbers as Swift writes them, dates in ISO 8601
    /// (UTC), enumerations as their raw value, bytes by count, other `Codable` values as JSON.
    /// Nil for `nil`, which pages show apart from any text.
    static func text(_ value: Any?) -> String? {
        guard let value = unwrapped(value) else { return nil }
        switch value {
        case let string as String: return string
        case let bool as Bool: return bool ? "true" : "false"
        case let date as Date: return DateText.format(date)
        case let uuid as UUID: return uuid.uuidString
        case let url as URL: return url.absoluteString
        case let data as Data: return "\(data.count) bytes"
        case let identifier as PersistentIdentifier: return ModelKey.text(of: identifier)
        case let integer as any BinaryInteger: return String(describing: integer)
        case let double as Double: return String(double)
        case let float as Float: return String(float)
        case let raw as any RawRepresentable: return text(raw.rawValue)
        case let encodable as any Encodable: return json(encodable) ?? String(describing: value)
        default: return String(describing: value)
        }
    }

    /// Compact JSON with sorted keys and ISO 8601 dates, the form edit fields of collections and
    /// structures take.
    static func json(_ value: any Encodable) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// A model's primary key in a URL (`/model/Trip/42`): an integer key as its digits, a string key
/// after `s:`, so that the two kinds never read as each other.
enum ModelKey {
    static func text(of identifier: PersistentIdentifier) -> String {
        switch identifier.primaryKey {
        case .integer(let integer): String(integer)
        case .string(let string): "s:" + string
        }
    }

    static func identifier(entity: String, key: String, storeIdentifier: String) throws -> PersistentIdentifier {
        if key.hasPrefix("s:") {
            return try PersistentIdentifier.identifier(for: storeIdentifier, entityName: entity, primaryKey: String(key.dropFirst(2)))
        }
        guard let integer = Int64(key) else {
            throw BrowserError.notFound("\(key) is not a primary key: integer keys are digits, string keys start with s:.")
        }
        return try PersistentIdentifier.identifier(for: storeIdentifier, entityName: entity, primaryKey: integer)
    }
}
