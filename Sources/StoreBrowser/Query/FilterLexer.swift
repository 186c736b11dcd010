/// The tokens of a filter: `name == "Paris" && nights > 3`, written as the body of a `#Predicate`.
struct FilterToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        case name(String)
        case string(String)
        /// A number as written, so that integers keep every digit.
        case number(String)
        /// `2026-06-01` or `2026-06-01T09:30:00Z`, as written.
        case date(String)
        case symbol(String)
    }

    let kind: Kind
    /// Where the token starts, in characters from the filter's start (for messages).
    let position: Int
}

/// Splits a filter into tokens; fails at the first character no token starts with.
struct FilterLexer {
    private static let symbols = ["==", "!=", "<=", ">=", "&&", "||", "??", "<", ">", "!", "(", ")", ".", ",", ":", "-"]

    static func tokens(of text: String) throws -> [FilterToken] {
        let characters = Array(text)
        var tokens: [FilterToken] = []
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let start = index
            if character.isWhitespace {
                index += 1
            } else if character == "\"" {
                tokens.append(FilterToken(kind: .string(try string(characters, &index)), position: start))
            } else if character.isNumber {
                tokens.append(FilterToken(kind: number(characters, &index), position: start))
            } else if character.isLetter || character == "_" || character == "$" {
                while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" || characters[index] == "$" {
                    index += 1
                }
                tokens.append(FilterToken(kind: .name(String(characters[start..<index])), position: start))
            } else if let symbol = symbols.first(where: { matches($0, characters, at: index) }) {
                index += symbol.count
                tokens.append(FilterToken(kind: .symbol(symbol), position: start))
            } else {
                throw FilterError("Unexpected “\(character)” at character \(start + 1).", position: start)
            }
        }
        return tokens
    }

    private static func matches(_ symbol: String, _ characters: [Character], at index: Int) -> Bool {
        let symbol = Array(symbol)
        return index + symbol.count <= characters.count && Array(characters[index..<index + symbol.count]) == symbol
    }

    /// A string in double quotes, with Swift's escapes `\"`, `\\`, `\n` and `\t`.
    private static func string(_ characters: [Character], _ index: inout Int) throws -> String {
        let start = index
        var value = ""
        index += 1
        while index < characters.count {
            let character = characters[index]
            if character == "\"" {
                index += 1
                return value
            }
            if character == "\\", index + 1 < characters.count {
                index += 1
                switch characters[index] {
                case "n": value.append("\n")
                case "t": value.append("\t")
                case let other: value.append(other)
                }
            } else {
                value.append(character)
            }
            index += 1
        }
        throw FilterError("The string that starts at character \(start + 1) has no closing quote.", position: start)
    }

    /// Digits, a fraction and an exponent (`12`, `3.5`, `1e6`), or a date when four digits are
    /// followed by `-` and more of the date.
    private static func number(_ characters: [Character], _ index: inout Int) -> FilterToken.Kind {
        let start = index
        func digits() { while index < characters.count, characters[index].isNumber { index += 1 } }
        digits()
        if index - start == 4, index + 5 < characters.count, characters[index] == "-", characters[index + 1].isNumber {
            while index < characters.count, characters[index].isNumber || "-:T.Z+".contains(characters[index]) { index += 1 }
            return .date(String(characters[start..<index]))
        }
        if index + 1 < characters.count, characters[index] == ".", characters[index + 1].isNumber {
            index += 1
            digits()
        }
        if index < characters.count, characters[index] == "e" || characters[index] == "E" {
            let mark = index
            index += 1
            if index < characters.count, characters[index] == "-" || characters[index] == "+" { index += 1 }
            if index < characters.count, characters[index].isNumber { digits() } else { index = mark }
        }
        return .number(String(characters[start..<index]))
    }
}

/// A filter that cannot be read or does not fit the entity: the message says what to change.
struct FilterError: Error, Equatable, CustomStringConvertible {
    let message: String
    /// The character the problem starts at, when it is one place.
    let position: Int?

    init(_ message: String, position: Int? = nil) {
        self.message = message
        self.position = position
    }

    var description: String { message }
}
