import Foundation

/// Brings a declaration to one spelling, so that the reference's text and the symbol graph's
/// compare equal exactly when a caller sees the same API: what a caller cannot see (attributes,
/// access and `final`/`convenience` modifiers, module qualifiers, parameter names behind labels,
/// spacing, a `let` versus a get-only `var`, a type's conformance list) is left out.
enum DeclarationText {
    static func normalized(_ text: String) -> String {
        var text = withoutAttributes(text.replacingOccurrences(of: #"= #externalMacro\([^)]*\)"#, with: "", options: .regularExpression))
        text = text.replacingOccurrences(of: #"\b(Swift|Foundation|FoundationEssentials|OpenSwiftData|SwiftData|_Concurrency|Observation)\."#, with: "", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\s*:\s*"#, with: ": ", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\s*,\s*"#, with: ", ", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        text = text.replacingOccurrences(of: #"([(\[<]) "#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: #" ([)\]>])"#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: #"([\w=<>!~+*/%&|^-]) \("#, with: "$1(", options: .regularExpression)
        text = text.replacingOccurrences(of: #"(\(|, )(\w+) (\w+): "#, with: "$1$2: ", options: .regularExpression)
        text = text.replacingOccurrences(of: #"(\(|, )_: "#, with: "$1", options: .regularExpression)
        text = text.replacingOccurrences(of: #"\b(consuming|borrowing|__owned|__shared) "#, with: "", options: .regularExpression)
        text = sortingWhereClause(text)
        var words = text.trimmingCharacters(in: .whitespaces).split(separator: " ").map(String.init)
        while let first = words.first, modifiers.contains(first) { words.removeFirst() }
        if words.count > 1, words[0] == "class", ["var", "func", "subscript"].contains(words[1]) { words[0] = "static" }
        return shaped(words.joined(separator: " "))
    }

    private static let modifiers: Set = ["public", "open", "final", "convenience", "required", "override", "nonisolated", "dynamic", "indirect"]

    /// Properties as `var name: T { get }` or `{ get set }`; types as their kind, name and
    /// generic parameters.
    private static func shaped(_ text: String) -> String {
        let isStatic = text.hasPrefix("static ")
        let body = isStatic ? String(text.dropFirst("static ".count)) : text
        let prefix = isStatic ? "static " : ""
        if body.hasPrefix("let ") {
            return prefix + "var " + body.dropFirst(4) + " { get }"
        }
        if body.hasPrefix("var "), !body.hasSuffix("}") {
            return prefix + body + " { get set }"
        }
        for keyword in ["class ", "struct ", "enum ", "protocol ", "actor "] where body.hasPrefix(keyword) {
            let name = body.dropFirst(keyword.count).prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            let rest = body.dropFirst(keyword.count + name.count)
            guard rest.hasPrefix("<"), let end = rest.firstIndex(of: ">") else { return keyword + name }
            let parameters = rest[rest.index(after: rest.startIndex)..<end]
                .split(separator: ",").map { $0.split(separator: ":")[0].trimmingCharacters(in: .whitespaces) }
            return keyword + name + "<" + parameters.joined(separator: ", ") + ">"
        }
        return text
    }

    /// The requirements of a trailing `where` clause in one order: the compiler prints them in its
    /// own, not as written.
    private static func sortingWhereClause(_ text: String) -> String {
        guard let whereRange = text.range(of: " where ", options: .backwards) else { return text }
        var clause = String(text[whereRange.upperBound...])
        var accessors = ""
        if let brace = clause.range(of: " {") {
            accessors = String(clause[brace.lowerBound...])
            clause = String(clause[..<brace.lowerBound])
        }
        var requirements: [String] = []
        var depth = 0
        var current = ""
        for character in clause {
            if "<([".contains(character) { depth += 1 }
            if ">)]".contains(character) { depth -= 1 }
            if character == ",", depth == 0 {
                requirements.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        requirements.append(current.trimmingCharacters(in: .whitespaces))
        return text[..<whereRange.lowerBound] + " where " + requirements.sorted().joined(separator: ", ") + accessors
    }

    /// The text without `@attribute` and `@attribute(…)` spellings, wherever they stand.
    private static func withoutAttributes(_ text: String) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            guard text[index] == "@" else {
                result.append(text[index])
                index = text.index(after: index)
                continue
            }
            index = text.index(after: index)
            while index < text.endIndex, text[index].isLetter || text[index].isNumber || text[index] == "_" {
                index = text.index(after: index)
            }
            guard index < text.endIndex, text[index] == "(" else { continue }
            var depth = 0
            repeat {
                if text[index] == "(" { depth += 1 }
                if text[index] == ")" { depth -= 1 }
                index = text.index(after: index)
            } while depth > 0 && index < text.endIndex
        }
        return result
    }
}
