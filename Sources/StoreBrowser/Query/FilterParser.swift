import Foundation
import OpenSwiftData

/// Reads a filter bar's text into the query tree `#Predicate` translates to, checked against the
/// entity: `destination == "Paris" && budgetCents > 100000`, `notes == nil`,
/// `name.localizedStandardContains("rome")`, `startDate >= 2026-06-01`,
/// `livingAccommodation.placeName.contains("Hotel")`, `(rating ?? 0) > 3`; `trip == 42` compares
/// a to-one relationship with the primary key of a model.
///
/// Grammar: `||` binds looser than `&&`, `!` tightest; parentheses group. An operand is a
/// property path (attributes, or to-one relationships then an attribute; an optional `$0.`
/// prefix), a literal (`"text"`, `12`, `-3.5`, `true`, `nil`, a date), or `(path ?? literal)`.
struct FilterParser {
    let schema: BrowsedSchema
    let root: BrowsedSchema.Entity
    /// The store's identifier, for the identifiers of relationship comparisons.
    let storeIdentifier: String
    private var tokens: [FilterToken] = []
    private var index = 0

    init(schema: BrowsedSchema, entity: BrowsedSchema.Entity, storeIdentifier: String) {
        self.schema = schema
        root = entity
        self.storeIdentifier = storeIdentifier
    }

    /// The filter's tree; nil for an empty filter.
    mutating func parse(_ text: String) throws -> QueryExpression? {
        tokens = try FilterLexer.tokens(of: text)
        index = 0
        guard !tokens.isEmpty else { return nil }
        let expression = try orExpression()
        if let extra = peek {
            throw FilterError("Unexpected \(describe(extra)) at character \(extra.position + 1); join conditions with && or ||.", position: extra.position)
        }
        return expression
    }

    // MARK: Logic

    private mutating func orExpression() throws -> QueryExpression {
        var expression = try andExpression()
        while take("||") { expression = .or(expression, try andExpression()) }
        return expression
    }

    private mutating func andExpression() throws -> QueryExpression {
        var expression = try unary()
        while take("&&") { expression = .and(expression, try unary()) }
        return expression
    }

    private mutating func unary() throws -> QueryExpression {
        if take("!") { return .not(try unary()) }
        if isSymbol("("), !startsCoalesce {
            index += 1
            let inner = try orExpression()
            try expect(")")
            return inner
        }
        return try condition()
    }

    /// `(` name … `??`: a coalescing operand, not a group.
    private var startsCoalesce: Bool {
        var probe = index + 1
        while probe < tokens.count {
            switch tokens[probe].kind {
            case .name, .symbol("."): probe += 1
            case .symbol("??"): return true
            default: return false
            }
        }
        return false
    }

    // MARK: Conditions

    private mutating func condition() throws -> QueryExpression {
        let start = peek?.position ?? 0
        let left = try operand()
        guard let comparison = comparisonOperator() else {
            return try booleanCondition(left, at: start)
        }
        let right = try operand()
        switch (left, right) {
        case (.path(let path), .literal(let literal)): return try compare(path, comparison, literal)
        case (.literal(let literal), .path(let path)): return try compare(path, comparison.flipped, literal)
        case (.coalesced(let path, let fallback), .literal(let literal)): return try compareCoalesced(path, fallback, comparison, literal)
        case (.literal(let literal), .coalesced(let path, let fallback)): return try compareCoalesced(path, fallback, comparison.flipped, literal)
        case (.test(let expression), .literal(.bool(let value))) where comparison == .equal || comparison == .notEqual:
            return (value == (comparison == .equal)) ? expression : .not(expression)
        default:
            throw FilterError("At character \(start + 1): compare a property with a value, as in name == \"Paris\".", position: start)
        }
    }

    private func booleanCondition(_ operand: Operand, at position: Int) throws -> QueryExpression {
        switch operand {
        case .test(let expression):
            return expression
        case .path(let path) where path.attribute?.type?.kind == .bool:
            guard !path.isOptional else {
                throw FilterError("\(path.text) may be nil: write \(path.text) == true.", position: position)
            }
            return .property(QueryPropertyPath(path.components))
        default:
            throw FilterError("At character \(position + 1): a condition needs a comparison, as in name == \"Paris\", or a true/false property.", position: position)
        }
    }

    private func compare(_ path: ResolvedPath, _ comparison: QueryComparisonOperator, _ literal: Literal) throws -> QueryExpression {
        let property = QueryExpression.property(QueryPropertyPath(path.components))
        if let relationship = path.relationship {
            guard !relationship.isToMany else {
                throw FilterError("\(path.text) is a to-many relationship; filter \(relationship.destination) by its \(relationship.inverseName ?? "relationship") instead.")
            }
            guard comparison == .equal || comparison == .notEqual else {
                throw FilterError("\(path.text) is a relationship: compare it with == or != and a primary key, as in \(path.text) == 42.")
            }
            let type = QueryValueType(.identifier, isOptional: path.isOptional)
            return .comparison(property, comparison, .value(try identifier(literal, of: relationship.destination, for: path)), type: type)
        }
        guard let attribute = path.attribute, let type = attribute.type, type.kind != .array, type.kind != .data else {
            throw FilterError("\(path.text) holds values stores cannot compare; filter by another property.")
        }
        let queryType = QueryValueType(type.kind, isOptional: path.isOptional)
        if case .null = literal {
            guard path.isOptional else { throw FilterError("\(path.text) is never nil.") }
            guard comparison == .equal || comparison == .notEqual else { throw FilterError("Compare nil with == or !=, as in \(path.text) == nil.") }
            return .comparison(property, comparison, .value(.null), type: queryType)
        }
        if comparison.isOrdering {
            guard !path.isOptional else {
                throw FilterError("\(path.text) may be nil: write (\(path.text) ?? \(Literal.example(for: type.kind))) \(comparison.symbol) …, as #Predicate needs.")
            }
            guard type.kind != .bool else { throw FilterError("\(path.text) is true or false: compare it with == or !=.") }
        }
        return .comparison(property, comparison, try literal.expression(as: type.kind, for: path.text), type: queryType)
    }

    private func compareCoalesced(_ path: ResolvedPath, _ fallback: Literal, _ comparison: QueryComparisonOperator, _ literal: Literal) throws -> QueryExpression {
        guard let attribute = path.attribute, let kind = attribute.type?.kind, path.isOptional else {
            throw FilterError("?? needs a property that may be nil; \(path.text) never is.")
        }
        let coalesced = QueryExpression.coalesce(.property(QueryPropertyPath(path.components)), default: try fallback.expression(as: kind, for: path.text))
        return .comparison(coalesced, comparison, try literal.expression(as: kind, for: path.text), type: QueryValueType(kind))
    }

    private func identifier(_ literal: Literal, of entity: String, for path: ResolvedPath) throws -> QueryValue {
        switch literal {
        case .null:
            guard path.isOptional else { throw FilterError("\(path.text) is never nil.") }
            return .null
        case .number(let text):
            guard let key = Int64(text) else { throw FilterError("\(text) is not a primary key; write a whole number or a string.") }
            return .identifier(try PersistentIdentifier.identifier(for: storeIdentifier, entityName: entity, primaryKey: key))
        case .string(let key):
            return .identifier(try PersistentIdentifier.identifier(for: storeIdentifier, entityName: entity, primaryKey: key))
        default:
            throw FilterError("Compare \(path.text) with a primary key (42, or \"a-key\") or nil.")
        }
    }

    // MARK: Operands

    private enum Operand {
        case path(ResolvedPath)
        case literal(Literal)
        case coalesced(ResolvedPath, Literal)
        /// A true/false test already built: a method call.
        case test(QueryExpression)
    }

    private mutating func operand() throws -> Operand {
        guard let token = peek else { throw FilterError("The filter ends where a value or property was expected.") }
        switch token.kind {
        case .symbol("("):
            index += 1
            let path = try propertyPath()
            try expect("??")
            let fallback = try literal()
            try expect(")")
            return .coalesced(path, fallback)
        case .name(let name) where !["true", "false", "nil"].contains(name):
            let path = try propertyPath()
            if take(".") { return .test(try methodCall(on: path)) }
            return .path(path)
        default:
            return .literal(try literal())
        }
    }

    private mutating func literal() throws -> Literal {
        guard let token = peek else { throw FilterError("The filter ends where a value was expected.") }
        index += 1
        switch token.kind {
        case .string(let text): return .string(text)
        case .number(let text): return .number(text)
        case .date(let text): return .date(text)
        case .name("true"): return .bool(true)
        case .name("false"): return .bool(false)
        case .name("nil"): return .null
        case .symbol("-"):
            guard case .number(let text)? = peek?.kind else { break }
            index += 1
            return .number("-" + text)
        default: break
        }
        throw FilterError("Expected a value at character \(token.position + 1), found \(describe(token)).", position: token.position)
    }

    /// `a.b.c` from the root entity: to-one relationships, then an attribute or a relationship.
    /// Stops before a name that is not a property, which may be a method (`.contains`).
    private mutating func propertyPath() throws -> ResolvedPath {
        guard case .name(var name)? = peek?.kind, let start = peek?.position else { throw FilterError("Expected a property name.") }
        index += 1
        if name == "$0" {
            try expect(".")
            guard case .name(let next)? = peek?.kind else { throw FilterError("Expected a property name after $0.") }
            index += 1
            name = next
        }
        var entity = root
        var path = ResolvedPath(components: [], entityName: root.name)
        while true {
            if let attribute = entity.attribute(named: name) {
                path.components.append(name)
                path.attribute = attribute
                path.isOptional = path.isOptional || attribute.isOptional
                return path
            }
            guard let relationship = entity.relationship(named: name) else {
                throw FilterError("\(entity.name) has no property \(name) (at character \(start + 1)); it has \((entity.attributes.map(\.name) + entity.relationships.map(\.name)).joined(separator: ", ")).", position: start)
            }
            path.components.append(name)
            path.relationship = relationship
            path.isOptional = path.isOptional || relationship.isOptional
            guard isSymbol("."), case .name(let next)? = token(at: index + 1)?.kind,
                  let destination = try? schema.entity(named: relationship.destination),
                  destination.attribute(named: next) != nil || destination.relationship(named: next) != nil else { return path }
            guard !relationship.isToMany else {
                throw FilterError("\(path.text) is a to-many relationship; filter \(relationship.destination) by its \(relationship.inverseName ?? "relationship") instead.", position: start)
            }
            if path.optionalPrefix == nil, relationship.isOptional { path.optionalPrefix = path.components }
            index += 2
            entity = destination
            path.relationship = nil
            name = next
        }
    }

    /// `.contains("x")`, `.localizedStandardContains("x")`, `.starts(with: "x")` on a string, and
    /// `.contains(value)` on a collection attribute.
    private mutating func methodCall(on path: ResolvedPath) throws -> QueryExpression {
        guard case .name(let method)? = peek?.kind else { throw FilterError("Expected a method name after \(path.text).") }
        index += 1
        try expect("(")
        if method == "starts" {
            guard case .name("with")? = peek?.kind else { throw FilterError("Write starts(with: \"…\").") }
            index += 1
            try expect(":")
        }
        let argument = try literal()
        try expect(")")
        guard let attribute = path.attribute, let kind = attribute.type?.kind else {
            throw FilterError("\(method) needs a string or collection attribute; \(path.text) is not one.")
        }
        let property = QueryExpression.property(QueryPropertyPath(path.components))
        if kind == .array, method == "contains", let element = attribute.elementType {
            return .collectionContains(property, element: try argument.expression(as: element.kind, for: path.text), type: element)
        }
        guard kind == .string else { throw FilterError("\(method) needs a string attribute; \(path.text) is not one.") }
        let text = QueryExpression.value(try argument.value(as: .string, for: path.text))
        return try path.optionalChain { string in
            switch method {
            case "contains": return .stringContains(string, text, options: [])
            case "localizedStandardContains": return .stringContains(string, text, options: [.caseInsensitive, .diacriticInsensitive, .localized])
            case "starts": return .startsWith(string, prefix: text)
            default: throw FilterError("Strings offer contains, localizedStandardContains and starts(with:), not \(method).")
            }
        }
    }

    private mutating func comparisonOperator() -> QueryComparisonOperator? {
        guard case .symbol(let symbol)? = peek?.kind, let comparison = QueryComparisonOperator(symbol: symbol) else { return nil }
        index += 1
        return comparison
    }

    // MARK: Tokens

    private var peek: FilterToken? { token(at: index) }

    private func token(at position: Int) -> FilterToken? { position < tokens.count ? tokens[position] : nil }

    private func isSymbol(_ symbol: String) -> Bool { peek?.kind == .symbol(symbol) }

    private mutating func take(_ symbol: String) -> Bool {
        guard isSymbol(symbol) else { return false }
        index += 1
        return true
    }

    private mutating func expect(_ symbol: String) throws {
        guard take(symbol) else {
            let position = peek?.position
            let found = peek.map(describe) ?? "the end"
            throw FilterError("Expected “\(symbol)” \(position.map { "at character \($0 + 1)" } ?? "at the end"), found \(found).", position: position)
        }
    }

    private func describe(_ token: FilterToken) -> String {
        switch token.kind {
        case .name(let name): "“\(name)”"
        case .string(let text): "the string “\(text)”"
        case .number(let text), .date(let text): "“\(text)”"
        case .symbol(let symbol): "“\(symbol)”"
        }
    }
}

/// A property path resolved against the schema.
struct ResolvedPath {
    var components: [String]
    var entityName: String
    var attribute: BrowsedSchema.Attribute?
    var relationship: BrowsedSchema.Relationship?
    /// Whether the value may be nil: the attribute is optional or a relationship on the way is.
    var isOptional = false
    /// The path to the first optional relationship on the way, which `?.` tests first.
    var optionalPrefix: [String]?

    var text: String { components.joined(separator: ".") }

    /// `body` applied to the path's string, as `?.` applies it: nil where the path is nil, then
    /// compared with `true`, the tree `$0.trip?.name.contains("x") == true` translates to.
    func optionalChain(_ body: (QueryExpression) throws -> QueryExpression) throws -> QueryExpression {
        let property = QueryExpression.property(QueryPropertyPath(components))
        guard isOptional else { return try body(property) }
        var expression: QueryExpression
        if let attribute, attribute.isOptional, let kind = attribute.type?.kind {
            let isNil = QueryExpression.comparison(property, .equal, .value(.null), type: QueryValueType(kind, isOptional: true))
            expression = .conditional(isNil, then: .value(.null), else: try body(.forceUnwrap(property)))
        } else {
            expression = try body(property)
        }
        if let prefix = optionalPrefix {
            let isNil = QueryExpression.comparison(.property(QueryPropertyPath(prefix)), .equal, .value(.null), type: QueryValueType(.identifier, isOptional: true))
            expression = .conditional(isNil, then: .value(.null), else: expression)
        }
        return .comparison(expression, .equal, .value(.bool(true)), type: QueryValueType(.bool, isOptional: true))
    }
}

extension QueryComparisonOperator {
    init?(symbol: String) {
        switch symbol {
        case "==": self = .equal
        case "!=": self = .notEqual
        case "<": self = .lessThan
        case "<=": self = .lessThanOrEqual
        case ">": self = .greaterThan
        case ">=": self = .greaterThanOrEqual
        default: return nil
        }
    }

    var symbol: String {
        switch self {
        case .equal: "=="
        case .notEqual: "!="
        case .lessThan: "<"
        case .lessThanOrEqual: "<="
        case .greaterThan: ">"
        case .greaterThanOrEqual: ">="
        }
    }

    var isOrdering: Bool { self != .equal && self != .notEqual }

    /// The operator with its operands swapped: `3 < nights` is `nights > 3`.
    var flipped: QueryComparisonOperator {
        switch self {
        case .lessThan: .greaterThan
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThan: .lessThan
        case .greaterThanOrEqual: .lessThanOrEqual
        case .equal, .notEqual: self
        }
    }
}
