import Foundation
import OpenSwiftData

extension QueryRequest {
    /// The request as JSON, byte for byte what `JSONEncoder` with the wire's settings and sorted
    /// keys writes: a client sends one with every fetch, and the encoder's boxing of each node of
    /// the query costs more than the rest of building the request. ``QueryRequestReader`` reads
    /// this form back on the server. An identifier constant is written by the encoder on its own.
    package func json() throws -> Data {
        var writer = JSONWriter(encoder: Self.identifierEncoder)
        writer.bytes.reserveCapacity(256)
        writer.append("{")
        if let author {
            writer.append("\"author\":")
            writer.string(author)
            writer.append(",")
        }
        writer.append("\"query\":{\"entityName\":")
        writer.string(query.entityName)
        if let limit = query.fetchLimit {
            writer.append(",\"fetchLimit\":")
            writer.append(String(limit))
        }
        if let offset = query.fetchOffset {
            writer.append(",\"fetchOffset\":")
            writer.append(String(offset))
        }
        if let filter = query.filter {
            writer.append(",\"filter\":")
            try writer.expression(filter)
        }
        writer.append(",\"sortBy\":[")
        for (index, key) in query.sortBy.enumerated() {
            writer.append(index == 0 ? "{\"ascending\":" : ",{\"ascending\":")
            writer.append(key.ascending ? "true" : "false")
            writer.append(",\"kind\":")
            writer.string(key.kind.rawValue)
            writer.append(",\"path\":")
            writer.path(key.path)
            writer.append("}")
        }
        writer.append("]}}")
        return Data(writer.bytes)
    }

    private static var identifierEncoder: JSONEncoder {
        let encoder = WireCoding.encoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONWriter {
    /// An expression in the form Swift synthesizes for enums: `{"case":{"_0":…,"label":…}}`,
    /// the payload's keys in sorted order.
    fileprivate mutating func expression(_ expression: QueryExpression) throws {
        switch expression {
        case .value(let value):
            open("value")
            try self.value(value)
        case .property(let path):
            open("property")
            self.path(path)
        case .identifier:
            append("{\"identifier\":{}}")
            return
        case .variable(let number):
            open("variable")
            append(String(number))
        case .elementProperty(let variable, let path):
            open("elementProperty")
            append(String(variable))
            append(",\"_1\":")
            self.path(path)
        case let .comparison(lhs, op, rhs, type):
            open("comparison")
            try self.expression(lhs)
            field("_1")
            string(op.rawValue)
            field("_2")
            try self.expression(rhs)
            field("type")
            valueType(type)
        case let .and(lhs, rhs):
            try pair("and", lhs, rhs)
        case let .or(lhs, rhs):
            try pair("or", lhs, rhs)
        case .not(let operand):
            open("not")
            try self.expression(operand)
        case let .conditional(test, then, otherwise):
            open("conditional")
            try self.expression(test)
            field("else")
            try self.expression(otherwise)
            field("then")
            try self.expression(then)
        case let .isEntity(operand, entityName):
            open("isEntity")
            try self.expression(operand)
            field("entityName")
            string(entityName)
        case let .arithmetic(lhs, op, rhs):
            open("arithmetic")
            try self.expression(lhs)
            field("_1")
            string(op.rawValue)
            field("_2")
            try self.expression(rhs)
        case .negate(let operand):
            open("negate")
            try self.expression(operand)
        case .forceUnwrap(let operand):
            open("forceUnwrap")
            try self.expression(operand)
        case let .coalesce(operand, fallback):
            open("coalesce")
            try self.expression(operand)
            field("default")
            try self.expression(fallback)
        case let .stringContains(string, other, options):
            try strings("stringContains", string, other, options)
        case let .startsWith(string, prefix):
            open("startsWith")
            try self.expression(string)
            field("prefix")
            try self.expression(prefix)
        case let .stringCompare(string, other, options):
            try strings("stringCompare", string, other, options)
        case let .count(operand, kind):
            try measure("count", operand, kind)
        case let .isEmpty(operand, kind):
            try measure("isEmpty", operand, kind)
        case let .collectionContains(collection, element, type):
            open("collectionContains")
            try self.expression(collection)
            field("element")
            try self.expression(element)
            field("type")
            valueType(type)
        case let .in(element, list, type):
            open("in")
            try self.expression(element)
            field("_1")
            try values(list)
            field("type")
            valueType(type)
        case let .collectionAny(collection, variable, test):
            try closure("collectionAny", collection, variable, test)
        case let .collectionAll(collection, variable, test):
            try closure("collectionAll", collection, variable, test)
        }
        append("}}")
    }

    /// `{"name":{"_0":`, the start of a case with a payload.
    private mutating func open(_ name: String) {
        append("{")
        string(name)
        append(":{\"_0\":")
    }

    private mutating func field(_ name: String) {
        append(",")
        string(name)
        append(":")
    }

    private mutating func pair(_ name: String, _ lhs: QueryExpression, _ rhs: QueryExpression) throws {
        open(name)
        try expression(lhs)
        field("_1")
        try expression(rhs)
    }

    private mutating func strings(_ name: String, _ string: QueryExpression, _ other: QueryExpression, _ options: QueryStringOptions) throws {
        open(name)
        try expression(string)
        field("_1")
        try expression(other)
        field("options")
        append(String(options.rawValue))
    }

    private mutating func measure(_ name: String, _ operand: QueryExpression, _ kind: QueryValueKind) throws {
        open(name)
        try expression(operand)
        field("of")
        string(kind.rawValue)
    }

    private mutating func closure(_ name: String, _ collection: QueryExpression, _ variable: Int, _ test: QueryExpression) throws {
        open(name)
        try expression(collection)
        field("test")
        try expression(test)
        field("variable")
        append(String(variable))
    }

    fileprivate mutating func path(_ path: QueryPropertyPath) {
        append("[")
        for (index, name) in path.components.enumerated() {
            if index > 0 { append(",") }
            string(name)
        }
        append("]")
    }

    private mutating func valueType(_ type: QueryValueType) {
        append(type.isOptional ? "{\"isOptional\":true,\"kind\":" : "{\"isOptional\":false,\"kind\":")
        string(type.kind.rawValue)
        append("}")
    }

    private mutating func values(_ list: [QueryValue]) throws {
        append("[")
        for (index, value) in list.enumerated() {
            if index > 0 { append(",") }
            try self.value(value)
        }
        append("]")
    }

    /// A constant as ``QueryValue``'s own `encode(to:)` writes it: `{"integer":3}`.
    private mutating func value(_ value: QueryValue) throws {
        switch value {
        case .null: append("{\"null\":true")
        case .bool(let flag): append(flag ? "{\"bool\":true" : "{\"bool\":false")
        case .integer(let integer):
            append("{\"integer\":")
            append(String(integer))
        case .double(let number):
            append("{\"double\":")
            floatingPoint(number)
        case .string(let text):
            append("{\"string\":")
            string(text)
        case .date(let date):
            append("{\"date\":")
            floatingPoint(date.timeIntervalSinceReferenceDate)
        case .uuid(let uuid):
            append("{\"uuid\":")
            string(uuid.canonicalString)
        case .data(let data):
            append("{\"data\":")
            string(data.base64EncodedString())
        case .identifier(let identifier):
            append("{\"identifier\":")
            try encoded(identifier)
        case .array(let list):
            append("{\"array\":")
            try values(list)
        }
        append("}")
    }
}
