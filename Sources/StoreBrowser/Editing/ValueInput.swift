import Foundation
import OpenSwiftData

/// How an attribute is edited: the form control for its type, and the JSON its `Decodable` type
/// reads the submitted text from, so that every attribute type, enumerations and `Codable`
/// structures included, is decoded by its own `init(from:)`.
enum ValueInput {
    enum Control: Equatable {
        case text
        case number(inputMode: String)
        case long
        case choice([String])
    }

    static func isEditable(_ attribute: BrowsedSchema.Attribute) -> Bool {
        attribute.valueType is any Decodable.Type
    }

    static func control(for attribute: BrowsedSchema.Attribute, current: String?) -> Control {
        if let cases = caseNames(of: attribute.valueType) { return .choice(cases) }
        switch attribute.type?.kind {
        case .bool?: return .choice(["true", "false"])
        case .integer?: return .number(inputMode: "numeric")
        case .double?: return .number(inputMode: "decimal")
        case .string?, .uuid?, .date?:
            let text = current ?? ""
            return text.count > 80 || text.contains("\n") ? .long : .text
        default: return .long
        }
    }

    static func help(for attribute: BrowsedSchema.Attribute) -> String {
        switch attribute.type?.kind {
        case .integer?: "A whole number."
        case .double?: "A finite number, such as 12.5."
        case .date?: "ISO 8601, in UTC unless an offset is given: 2026-06-01 or 2026-06-01T09:30:00Z."
        case .uuid?: "A UUID, such as 6F9619FF-8B86-D011-B42D-00CF4FC964FF."
        case .bool?: "true or false."
        case .string?: caseNames(of: attribute.valueType) == nil ? "Text, as it is stored." : "One of the enumeration's values."
        default: "JSON, as the type encodes: collections as arrays, structures as objects, bytes as base64."
        }
    }

    /// The submitted text as the JSON array of one value that the attribute's type decodes from.
    static func json(for attribute: BrowsedSchema.Attribute, text: String, isNil: Bool) throws -> Data {
        if isNil {
            guard attribute.isOptional else { throw BrowserError(.unprocessableContent, "\(attribute.name) cannot be nil.") }
            return Data("[null]".utf8)
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let fragment: String
        switch attribute.type?.kind {
        case .string?:
            fragment = quoted(text)
        case .integer?:
            guard Int64(trimmed) != nil || UInt64(trimmed) != nil else { throw invalid(attribute, "\(trimmed) is not a whole number.") }
            fragment = trimmed
        case .double?:
            guard let number = Double(trimmed), number.isFinite else { throw invalid(attribute, "\(trimmed) is not a finite number.") }
            fragment = String(number)
        case .bool?:
            guard trimmed == "true" || trimmed == "false" else { throw invalid(attribute, "Choose true or false.") }
            fragment = trimmed
        case .date?:
            guard let date = DateText.parse(trimmed) else { throw invalid(attribute, "\(trimmed) is not a date; write 2026-06-01 or 2026-06-01T09:30:00Z.") }
            fragment = quoted(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case .uuid?:
            guard UUID(uuidString: trimmed) != nil else { throw invalid(attribute, "\(trimmed) is not a UUID.") }
            fragment = quoted(trimmed)
        default:
            fragment = trimmed
        }
        return Data("[\(fragment)]".utf8)
    }

    /// The decoder of those arrays: dates as the browser writes them.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = DateText.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not an ISO 8601 date."))
            }
            return date
        }
        return decoder
    }

    /// Why a decoding failed, in a sentence.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return BrowserCore.message(of: error) }
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            return context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }

    private static func invalid(_ attribute: BrowsedSchema.Attribute, _ message: String) -> BrowserError {
        BrowserError(.unprocessableContent, "\(attribute.name): \(message)")
    }

    private static func quoted(_ text: String) -> String {
        (try? JSONEncoder().encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }

    /// The raw values of an enumeration that lists its cases, optional or not.
    private static func caseNames(of type: any Any.Type) -> [String]? {
        if let optional = type as? any AnyOptional.Type { return caseNames(of: optional.optionalWrappedType) }
        guard let cases = type as? any CaseIterable.Type else { return nil }
        return names(of: cases)
    }

    private static func names<T: CaseIterable>(of _: T.Type) -> [String] {
        T.allCases.compactMap { StoredValue.text($0) }
    }
}
