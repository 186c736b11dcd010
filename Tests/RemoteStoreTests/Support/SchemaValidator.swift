import Foundation

/// Checks a JSON value against the subset of JSON Schema the API document uses: `$ref`, `type`
/// (one or several), `required`, `properties`, `additionalProperties`, `items`, `enum`, `minimum`.
/// Returns what does not match, as `path: problem` lines; empty when it matches.
struct SchemaValidator {
    let document: [String: Any]

    func violations(of value: JSONValue, against schema: [String: Any], at path: String = "$") -> [String] {
        if let reference = schema["$ref"] as? String {
            guard let resolved = resolve(reference) else { return ["\(path): unresolvable \(reference)"] }
            return violations(of: value, against: resolved, at: path)
        }
        var problems: [String] = []
        if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }),
           !types.contains(where: { matches(value, type: $0) }) {
            return ["\(path): expected \(types.joined(separator: " or ")), found \(value)"]
        }
        if let allowed = schema["enum"] as? [Any], case .string(let text) = value, !allowed.contains(where: { "\($0)" == text }) {
            problems.append("\(path): \(text) is not one of \(allowed)")
        }
        if let minimum = schema["minimum"] as? Int, case .integer(let number) = value, number < minimum {
            problems.append("\(path): \(number) is below \(minimum)")
        }
        if case .object(let object) = value {
            for name in schema["required"] as? [String] ?? [] where object[name] == nil {
                problems.append("\(path): '\(name)' is required")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (name, member) in object {
                if let property = properties[name] as? [String: Any] {
                    problems += violations(of: member, against: property, at: "\(path).\(name)")
                } else if schema["additionalProperties"] as? Bool == false {
                    problems.append("\(path): '\(name)' is not allowed")
                }
            }
        }
        if case .array(let array) = value, let items = schema["items"] as? [String: Any] {
            for (index, element) in array.enumerated() {
                problems += violations(of: element, against: items, at: "\(path)[\(index)]")
            }
        }
        return problems
    }

    func resolve(_ reference: String) -> [String: Any]? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: Any = document
        for part in reference.dropFirst(2).split(separator: "/") {
            guard let next = (node as? [String: Any])?[String(part)] else { return nil }
            node = next
        }
        return node as? [String: Any]
    }

    private func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("integer", .integer),
             ("number", .integer), ("number", .number), ("null", .null): true
        default: false
        }
    }
}

/// A JSON document with booleans, integers and other numbers told apart (JSONSerialization's
/// `NSNumber`s do not).
enum JSONValue: Decodable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int.self) { self = .integer(value); return }
        if let value = try? container.decode(Double.self) { self = .number(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([JSONValue].self) { self = .array(value); return }
        self = .object(try container.decode([String: JSONValue].self))
    }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
