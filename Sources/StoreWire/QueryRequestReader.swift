import Foundation
import OpenSwiftData

/// Reads a query request in the form ``QueryRequest/json()`` writes it (keys sorted, no
/// whitespace needed), straight from its bytes: `JSONDecoder` builds a tree of the body and
/// decodes each node through a keyed container, most of a server's work before it runs a query.
///
/// Any other form (keys in another order, a key it does not know, a fraction where an integer
/// goes) ends the read with nil, and the caller decodes the body with `JSONDecoder`, which reads
/// every form and whose errors say what is wrong. What it does read, it reads as that decoder does.
package struct QueryRequestReader: JSONScanning {
    let bytes: [UInt8]
    var offset = 0
    private var depth = 0
    private let decoder = WireCoding.decoder()

    /// Deeper than `JSONDecoder` reads; the body's depth is also limited before any decoding.
    private static var maxDepth: Int { 512 }

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The request, or nil when the body is not in the form ``QueryRequest/json()`` writes.
    package mutating func read() -> QueryRequest? {
        try? request()
    }

    private mutating func request() throws -> QueryRequest {
        try expect("{")
        var author: String?
        var key = try self.key()
        if key == "author" {
            author = try string()
            try expect(",")
            key = try self.key()
        }
        guard key == "query" else { throw UnexpectedJSON() }
        try expect("{")
        try expectKey("entityName")
        var query = DataStoreQuery(entityName: try string())
        try expect(",")
        key = try self.key()
        if key == "fetchLimit" {
            query.fetchLimit = try integer(Int.self)
            try expect(",")
            key = try self.key()
        }
        if key == "fetchOffset" {
            query.fetchOffset = try integer(Int.self)
            try expect(",")
            key = try self.key()
        }
        if key == "filter" {
            query.filter = try expression()
            try expect(",")
            key = try self.key()
        }
        guard key == "sortBy" else { throw UnexpectedJSON() }
        query.sortBy = try list { reader in try reader.sortKey() }
        try expect("}")
        try expect("}")
        skipWhitespace()
        guard offset == bytes.count else { throw UnexpectedJSON() }
        return QueryRequest(query: query, author: author)
    }

    private mutating func sortKey() throws -> QuerySortKey {
        try expect("{")
        try expectKey("ascending")
        let ascending = try bool()
        try expect(",")
        try expectKey("kind")
        let kind = try valueKind()
        try expect(",")
        try expectKey("path")
        let path = try self.path()
        try expect("}")
        return QuerySortKey(path: path, ascending: ascending, kind: kind)
    }

    /// One node, as Swift's synthesized `Decodable` reads it from `{"case":{"_0":…,"label":…}}`.
    private mutating func expression() throws -> QueryExpression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw UnexpectedJSON() }
        try expect("{")
        let name = try key()
        try expect("{")
        if name == "identifier" {
            try expect("}")
            try expect("}")
            return .identifier
        }
        try expectKey("_0")
        let expression: QueryExpression
        switch name {
        case "value": expression = .value(try value())
        case "property": expression = .property(try path())
        case "variable": expression = .variable(try integer(Int.self))
        case "elementProperty":
            let variable = try integer(Int.self)
            try field("_1")
            expression = .elementProperty(variable, try path())
        case "comparison":
            let lhs = try self.expression()
            try field("_1")
            let op = try raw(QueryComparisonOperator.self)
            try field("_2")
            let rhs = try self.expression()
            try field("type")
            expression = .comparison(lhs, op, rhs, type: try valueType())
        case "and":
            let lhs = try self.expression()
            try field("_1")
            expression = .and(lhs, try self.expression())
        case "or":
            let lhs = try self.expression()
            try field("_1")
            expression = .or(lhs, try self.expression())
        case "not": expression = .not(try self.expression())
        case "conditional":
            let test = try self.expression()
            try field("else")
            let otherwise = try self.expression()
            try field("then")
            expression = .conditional(test, then: try self.expression(), else: otherwise)
        case "isEntity":
            let operand = try self.expression()
            try field("entityName")
            expression = .isEntity(operand, entityName: try string())
        case "arithmetic":
            let lhs = try self.expression()
            try field("_1")
            let op = try raw(QueryArithmeticOperator.self)
            try field("_2")
            expression = .arithmetic(lhs, op, try self.expression())
        case "negate": expression = .negate(try self.expression())
        case "forceUnwrap": expression = .forceUnwrap(try self.expression())
        case "coalesce":
            let operand = try self.expression()
            try field("default")
            expression = .coalesce(operand, default: try self.expression())
        case "stringContains":
            let (string, other, options) = try stringPair()
            expression = .stringContains(string, other, options: options)
        case "startsWith":
            let string = try self.expression()
            try field("prefix")
            expression = .startsWith(string, prefix: try self.expression())
        case "stringCompare":
            let (string, other, options) = try stringPair()
            expression = .stringCompare(string, other, options: options)
        case "count":
            let operand = try self.expression()
            try field("of")
            expression = .count(operand, of: try valueKind())
        case "isEmpty":
            let operand = try self.expression()
            try field("of")
            expression = .isEmpty(operand, of: try valueKind())
        case "collectionContains":
            let collection = try self.expression()
            try field("element")
            let element = try self.expression()
            try field("type")
            expression = .collectionContains(collection, element: element, type: try valueType())
        case "in":
            let element = try self.expression()
            try field("_1")
            let list = try self.list { reader in try reader.value() }
            try field("type")
            expression = .in(element, list, type: try valueType())
        case "collectionAny":
            let (collection, test, variable) = try closure()
            expression = .collectionAny(collection, variable: variable, test: test)
        case "collectionAll":
            let (collection, test, variable) = try closure()
            expression = .collectionAll(collection, variable: variable, test: test)
        default: throw UnexpectedJSON()
        }
        try expect("}")
        try expect("}")
        return expression
    }

    private mutating func stringPair() throws -> (QueryExpression, QueryExpression, QueryStringOptions) {
        let string = try expression()
        try field("_1")
        let other = try expression()
        try field("options")
        return (string, other, QueryStringOptions(rawValue: try integer(Int.self)))
    }

    private mutating func closure() throws -> (QueryExpression, QueryExpression, Int) {
        let collection = try expression()
        try field("test")
        let test = try expression()
        try field("variable")
        return (collection, test, try integer(Int.self))
    }

    /// A constant as ``QueryValue``'s own `init(from:)` reads it: `{"integer":3}`.
    private mutating func value() throws -> QueryValue {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maxDepth else { throw UnexpectedJSON() }
        try expect("{")
        let value: QueryValue
        switch try key() {
        case "null":
            guard try next("true") else { throw UnexpectedJSON() }
            value = .null
        case "bool": value = .bool(try bool())
        case "integer": value = .integer(try integer(Int64.self))
        case "double": value = .double(try floatingPoint(Double.self))
        case "string": value = .string(try string())
        case "date": value = .date(Date(timeIntervalSinceReferenceDate: try floatingPoint(Double.self)))
        case "uuid":
            guard let uuid = UUID(canonicalString: try string()) else { throw UnexpectedJSON() }
            value = .uuid(uuid)
        case "data":
            guard let data = Data(base64Encoded: try string()) else { throw UnexpectedJSON() }
            value = .data(data)
        case "identifier": value = .identifier(try decoded(PersistentIdentifier.self, with: decoder))
        case "array": value = .array(try list { reader in try reader.value() })
        default: throw UnexpectedJSON()
        }
        try expect("}")
        return value
    }

    /// An integer in plain digits; a fraction or an exponent is left to `JSONDecoder`.
    private mutating func integer<Value: FixedWidthInteger>(_: Value.Type) throws -> Value {
        guard let integer = Value(try number()) else { throw UnexpectedJSON() }
        return integer
    }

    private mutating func bool() throws -> Bool {
        if try next("true") { return true }
        guard try next("false") else { throw UnexpectedJSON() }
        return false
    }

    private mutating func path() throws -> QueryPropertyPath {
        QueryPropertyPath(try strings())
    }

    private mutating func valueType() throws -> QueryValueType {
        try expect("{")
        try expectKey("isOptional")
        let isOptional = try bool()
        try expect(",")
        try expectKey("kind")
        let kind = try valueKind()
        try expect("}")
        return QueryValueType(kind, isOptional: isOptional)
    }

    private mutating func valueKind() throws -> QueryValueKind {
        try raw(QueryValueKind.self)
    }

    private mutating func raw<Value: RawRepresentable<String>>(_: Value.Type) throws -> Value {
        guard let value = Value(rawValue: try string()) else { throw UnexpectedJSON() }
        return value
    }

    private mutating func list<Element>(_ element: (inout Self) throws -> Element) throws -> [Element] {
        try expect("[")
        var elements: [Element] = []
        if try next("]") { return elements }
        repeat { elements.append(try element(&self)) } while try next(",")
        try expect("]")
        return elements
    }

    /// `,"name":` between a payload's values.
    private mutating func field(_ name: String) throws {
        try expect(",")
        try expectKey(name)
    }

    private mutating func expectKey(_ name: String) throws {
        guard try key() == name else { throw UnexpectedJSON() }
    }
}

extension QueryRequest {
    /// The request in `bytes`: through ``QueryRequestReader`` when it is in the form
    /// ``json()`` writes, else through `decode`, which reads any form and throws what is wrong.
    package static func read(from bytes: [UInt8], orDecode decode: ([UInt8]) throws -> QueryRequest) throws -> QueryRequest {
        var reader = QueryRequestReader(bytes)
        return try reader.read() ?? decode(bytes)
    }
}
