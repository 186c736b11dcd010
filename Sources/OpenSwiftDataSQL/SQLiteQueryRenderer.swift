import Foundation
import OpenSwiftDataCore

/// Renders a ``QueryExpression`` as a SQLite condition whose result is exactly the predicate's.
///
/// ```swift
/// let renderer = SQLiteQueryRenderer(
///     column: { path in "\"t\".\"\(path.components[0])\"" },   // throw for paths you cannot join
///     identifierColumn: #""t"."Z_PK""#,
///     primaryKey: { id in id.storeIdentifier == store.identifier && id.entityName == "Trip" ? .integer(key(of: id)) : nil }
/// )
/// let clauses = try renderer.render(query)   // WHERE … ORDER BY … LIMIT ? OFFSET ?
/// ```
///
/// Values are always placeholders, numbered as the dialect numbers them (``SQLDialect/placeholder(_:)``)
/// from the first one a call names, so that a rendered fragment can stand inside a larger
/// statement with its own bound values before it. What the SQL assumes of the store:
/// - Non-optional attributes are `NOT NULL`; an optional one is NULL exactly when it is nil.
/// - Arguments are bound as the columns hold the same kind: `.bool` as 0/1, `.date` as the same
///   number the store writes for dates, `.uuid`/`.data` as the store writes them. Strings are
///   compared byte-wise (SQLite's BINARY collation), which is Swift's `==` and `<` for text in
///   Unicode NFC; bind NFC text, and give the `column` closure's SQL as NFC text (the SQLite
///   store's `osd_nfc(…)` of a column that has held other text), or expect canonically
///   equivalent spellings to differ.
/// - Collection attributes are JSON array text whose elements read back through `json_each`
///   exactly as the store binds the same kind; an `.array` argument must be bound the same way.
///   Double elements may be written as integral JSON numbers: the SQL casts before dividing.
/// - `Double` attributes have REAL affinity. SQLite stores NaN as NULL, so a stored NaN does not
///   compare as Swift's NaN; floating-point division by zero is NULL, not an infinity.
/// - The store registers ``functions`` (`osd_contains`, `osd_starts_with`, `osd_compare`,
///   `osd_character_count`): Swift's string semantics, which `LIKE`, `instr` and `length` lack
///   (`LIKE` ignores ASCII case; all three see Unicode scalars, not `Character`s).
///
/// - A to-many relationship is rows of another table (``SQLiteRelatedRows``): `count`, `isEmpty`,
///   `contains(where:)` and `allSatisfy` on it are correlated subqueries over those rows.
///
/// Whatever it cannot render exactly throws ``QueryTranslationError``.
///
/// The same renderer writes PostgreSQL (`dialect: .postgreSQL`) and any other ``SQLDialect``:
/// ``PostgreSQLDialect`` lists what that dialect assumes of the store and what it refuses.
public struct SQLiteQueryRenderer {
    let column: (QueryPropertyPath) throws -> String
    let identifierColumn: String
    let primaryKey: (PersistentIdentifier) -> QueryValue?
    let relatedRows: (QueryPropertyPath) -> SQLiteRelatedRows?
    let entity: (String) -> String?
    let dialect: any SQLDialect

    /// - Parameters:
    ///   - column: The quoted column for a property path, e.g. `"t"."name"`; throws for paths it
    ///     cannot reach (such as paths through relationships without a join).
    ///   - identifierColumn: The quoted column holding the fetched rows' keys, e.g. `"t"."Z_PK"`.
    ///   - primaryKey: The key stored for an identifier, or nil when it belongs to another store or
    ///     entity than the fetched one; such an identifier matches no row.
    ///   - relatedRows: For a to-many relationship of the fetched model, the rows it leads to;
    ///     nil for paths stored as a JSON array column.
    ///   - entity: The condition that the fetched row is of the named entity or one of its
    ///     subentities (`is`, `as?`); nil when the store cannot tell, and the predicate runs in memory.
    ///   - dialect: The database the SQL is written for.
    public init(column: @escaping (QueryPropertyPath) throws -> String, identifierColumn: String,
                primaryKey: @escaping (PersistentIdentifier) -> QueryValue?,
                relatedRows: @escaping (QueryPropertyPath) -> SQLiteRelatedRows? = { _ in nil },
                entity: @escaping (String) -> String? = { _ in nil },
                dialect: any SQLDialect = .sqlite) {
        self.column = column
        self.identifierColumn = identifierColumn
        self.primaryKey = primaryKey
        self.relatedRows = relatedRows
        self.entity = entity
        self.dialect = dialect
    }

    /// The expression as an SQL condition with its arguments, its placeholders numbered from
    /// `firstPlaceholder`; throws ``QueryTranslationError`` for what the dialect cannot compute
    /// exactly as Swift does.
    public func render(_ expression: QueryExpression, firstPlaceholder: Int = 1) throws -> SQLFragment {
        var state = SQLiteRenderState(dialect: dialect, firstPlaceholder: firstPlaceholder)
        let sql = try sql(expression, &state)
        return SQLFragment(sql, arguments: state.arguments)
    }

    func sql(_ expression: QueryExpression, _ state: inout SQLiteRenderState) throws -> String {
        switch expression {
        case .value(let value):
            return try sql(value, &state)
        case .property(let path):
            return try column(path)
        case .identifier:
            return identifierColumn
        case .variable(let number):
            guard let element = state.elementRows[number] else { return "j\(number).value" }
            return "\(element.alias).\(element.rows.destinationKey)"
        case let .elementProperty(number, path):
            guard let element = state.elementRows[number] else {
                throw QueryTranslationError.unsupported("Properties of collection elements are rendered for to-many relationships only")
            }
            return try element.rows.elementColumn(element.alias, path)
        case let .comparison(lhs, op, rhs, type):
            return try comparison(lhs, op, rhs, type, &state)
        case let .and(lhs, rhs):
            return "(\(try sql(lhs, &state)) AND \(try sql(rhs, &state)))"
        case let .or(lhs, rhs):
            return "(\(try sql(lhs, &state)) OR \(try sql(rhs, &state)))"
        case .not(let operand):
            return "(NOT \(try sql(operand, &state)))"
        case let .isEntity(.identifier, entityName):
            guard let condition = entity(entityName) else {
                throw QueryTranslationError.unsupported("The store cannot tell whether a row is a \(entityName)")
            }
            return "(\(condition))"
        case .isEntity:
            throw QueryTranslationError.unsupported("`is` and `as?` are rendered for the fetched model only")
        case let .conditional(test, then, otherwise):
            return "(CASE WHEN \(try sql(test, &state)) THEN \(try sql(then, &state)) ELSE \(try sql(otherwise, &state)) END)"
        case let .arithmetic(lhs, .floatDivide, rhs):
            guard let division = dialect.floatDivision(try sql(lhs, &state), try sql(rhs, &state)) else {
                throw QueryTranslationError.unsupported("Floating-point division is not rendered for \(dialect.name), which does not divide as Swift does")
            }
            return division
        case let .arithmetic(lhs, op, rhs):
            return "(\(try sql(lhs, &state)) \(Self.sqlOperator(op)) \(try sql(rhs, &state)))"
        case .negate(let operand):
            return "(-\(try sql(operand, &state)))"
        case .forceUnwrap(let operand):
            return try sql(operand, &state)
        case let .coalesce(operand, fallback):
            return "COALESCE(\(try sql(operand, &state)), \(try sql(fallback, &state)))"
        case let .stringContains(string, other, options):
            return try stringFunction("osd_contains(\(try sql(string, &state)), \(try sql(other, &state)), \(options.rawValue))")
        case let .startsWith(string, prefix):
            return try stringFunction("osd_starts_with(\(try sql(string, &state)), \(try sql(prefix, &state)))")
        case let .stringCompare(string, other, options):
            return try stringFunction("osd_compare(\(try sql(string, &state)), \(try sql(other, &state)), \(options.rawValue))")
        case let .count(.property(path), .array) where relatedRows(path) != nil:
            return "(SELECT COUNT(*) \(relatedRows(path)!.links(alias: "r")))"
        case let .isEmpty(.property(path), .array) where relatedRows(path) != nil:
            return "(NOT EXISTS (SELECT 1 \(relatedRows(path)!.links(alias: "r"))))"
        case let .collectionAny(.property(path), variable, test) where relatedRows(path) != nil:
            return try relatedTest(relatedRows(path)!, variable, test, all: false, &state)
        case let .collectionAll(.property(path), variable, test) where relatedRows(path) != nil:
            return try relatedTest(relatedRows(path)!, variable, test, all: true, &state)
        case let .count(operand, kind):
            return try count(operand, kind, &state)
        case let .isEmpty(operand, .string):
            return "(length(\(try sql(operand, &state))) = 0)"
        case let .isEmpty(operand, kind):
            return "(\(try count(operand, kind, &state)) = 0)"
        case let .collectionContains(collection, element, type):
            return try collectionContains(collection, element, type, &state)
        case let .in(element, list, type):
            return try membership(element, list, type, &state)
        case let .collectionAny(collection, variable, test):
            try requireTypedElements()
            return "EXISTS (SELECT 1 FROM \(try elements(of: collection, alias: "j\(variable)", &state)) WHERE \(try sql(test, &state)))"
        case let .collectionAll(collection, variable, test):
            try requireTypedElements()
            // A NULL test (only where Swift would throw) counts as unsatisfied, as in collectionAny.
            return "NOT EXISTS (SELECT 1 FROM \(try elements(of: collection, alias: "j\(variable)", &state)) WHERE NOT COALESCE(\(try sql(test, &state)), \(dialect.literal(false))))"
        }
    }

    /// `contains(where:)` (`all` false) or `allSatisfy` over a to-many's related models, each as
    /// `j<variable>`. A test that reads only that model is a key list of the fetched rows with a
    /// related model passing it (`<owner> IN (…)`, `NOT IN` for `allSatisfy`), which SQLite runs
    /// once, where a correlated `EXISTS` runs once per fetched row; the key list costs about what a
    /// hand-written join does.
    private func relatedTest(_ rows: SQLiteRelatedRows, _ variable: Int, _ test: QueryExpression, all: Bool,
                             _ state: inout SQLiteRenderState) throws -> String {
        let alias = "j\(variable)"
        state.elementRows[variable] = (alias, rows)
        let condition = try sql(test, &state)
        // A NULL test (only where Swift would throw) counts as unsatisfied, as in collectionAny.
        let wanted = all ? "NOT COALESCE(\(condition), \(dialect.literal(false)))" : condition
        if test.readsOnlyElement(variable) {
            return "\(rows.owner) \(all ? "NOT IN" : "IN") (\(rows.owners(alias: alias, where: wanted)))"
        }
        return "\(all ? "NOT EXISTS" : "EXISTS") (SELECT 1 \(rows.elements(alias: alias)) AND \(wanted))"
    }

    /// A constant as a placeholder. Identifiers become the store's keys.
    func sql(_ value: QueryValue, _ state: inout SQLiteRenderState) throws -> String {
        guard value != .null else { return "NULL" }
        guard let stored = storedValue(value) else {
            throw QueryTranslationError.unsupported("An identifier of another store or entity is not rendered here")
        }
        guard !stored.containsNaN else {
            throw QueryTranslationError.unsupported("NaN outside a comparison is not rendered (SQLite stores NaN as NULL)")
        }
        return state.bind(stored)
    }

    func storedValue(_ value: QueryValue) -> QueryValue? {
        switch value {
        case .identifier(let identifier):
            return primaryKey(identifier)
        case .array(let elements):
            var stored: [QueryValue] = []
            for element in elements {
                guard let converted = storedValue(element) else { return nil }
                stored.append(converted)
            }
            return .array(stored)
        default:
            return value
        }
    }

    /// `String.count` counts `Character`s, which only the registered function knows.
    private func count(_ operand: QueryExpression, _ kind: QueryValueKind, _ state: inout SQLiteRenderState) throws -> String {
        switch kind {
        case .string:
            return try stringFunction("osd_character_count(\(try sql(operand, &state)))")
        case .array:
            guard let length = dialect.jsonArrayLength(try sql(operand, &state)) else {
                throw QueryTranslationError.unsupported("count of a collection attribute is not rendered for \(dialect.name)")
            }
            return length
        default:
            throw QueryTranslationError.unsupported("count of a \(kind) value is not rendered")
        }
    }

    /// A call of one of the store's `osd_*` functions, which have Swift's string semantics; a
    /// dialect without them (``SQLDialect/hasSwiftStringFunctions``) refuses.
    private func stringFunction(_ call: String) throws -> String {
        guard dialect.hasSwiftStringFunctions else {
            throw QueryTranslationError.unsupported("String functions with Swift's Character semantics are not rendered for \(dialect.name)")
        }
        return call
    }

    /// The rows of a collection attribute's elements (``SQLDialect/jsonArrayElements(_:alias:)``).
    func elements(of collection: QueryExpression, alias: String?, _ state: inout SQLiteRenderState) throws -> String {
        guard let elements = dialect.jsonArrayElements(try sql(collection, &state), alias: alias) else {
            throw QueryTranslationError.unsupported("Elements of collection attributes are not rendered for \(dialect.name)")
        }
        return elements
    }

    /// Refuses elements compared with anything but strings where the dialect reads every element
    /// as text (``SQLDialect/jsonElementsKeepTheirTypes``), which compares exactly only with text.
    func requireTypedElements() throws {
        guard !dialect.jsonElementsKeepTheirTypes else { return }
        throw QueryTranslationError.unsupported("Elements of collection attributes other than strings are not rendered for \(dialect.name)")
    }

    private static func sqlOperator(_ op: QueryArithmeticOperator) -> String {
        switch op {
        case .add: "+"
        case .subtract: "-"
        case .multiply: "*"
        case .integerDivide, .floatDivide: "/"
        case .remainder: "%"
        }
    }
}

extension QueryValue {
    var containsNaN: Bool {
        switch self {
        case .double(let double): double.isNaN
        case .array(let elements): elements.contains { $0.containsNaN }
        default: false
        }
    }
}
