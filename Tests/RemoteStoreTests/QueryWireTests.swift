import Foundation
import OpenSwiftData
import StoreWire
import Testing

/// Query requests: the client writes them by hand (`json()`) and the server reads them by hand
/// (`QueryRequestReader`); both must agree with `JSONEncoder` and `JSONDecoder` exactly.
@Suite struct QueryWireTests {
    static let identifier = try! PersistentIdentifier.identifier(for: "notes", entityName: "Note", primaryKey: Int64(7))

    static let everyKindOfValue: [QueryValue] = [
        .null, .bool(true), .bool(false), .integer(.min), .integer(.max), .double(-0.0), .double(.nan), .double(.infinity),
        .double(-.infinity), .double(0.1), .double(5), .double(1e300), .double(.leastNonzeroMagnitude), .string("quote \" slash / \\ tab \t bell \u{07} \u{1F} é 👩‍👩‍👧"),
        .date(Date(timeIntervalSince1970: -1_000_000_000.125)), .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
        .data(Data([0, 255, 7])), .identifier(identifier), .array([.string("a"), .null, .array([])]),
    ]

    static let name = QueryExpression.property(["name"])
    static let tags = QueryExpression.property(["tags"])
    static let text = QueryValueType(.string)

    /// One filter of each kind of node.
    static let everyKindOfNode: [QueryExpression] = [
        .comparison(.property(["age"]), .equal, .value(.integer(18)), type: QueryValueType(.integer)),
        .and(.not(.comparison(name, .notEqual, .value(.null), type: QueryValueType(.string, isOptional: true))), .value(.bool(true))),
        .or(.isEntity(.identifier, entityName: "Note"), .comparison(.identifier, .equal, .value(.identifier(identifier)), type: QueryValueType(.identifier))),
        .conditional(.value(.bool(false)), then: .value(.integer(1)), else: .negate(.arithmetic(.property(["rank"]), .remainder, .value(.integer(2))))),
        .comparison(.forceUnwrap(.coalesce(.property(["folder", "title"]), default: .value(.string("")))), .lessThanOrEqual, .value(.string("m")), type: text),
        .stringContains(name, .value(.string("par")), options: [.caseInsensitive, .diacriticInsensitive, .localized]),
        .and(.startsWith(name, prefix: .value(.string("P"))), .comparison(.stringCompare(name, .value(.string("x")), options: .caseInsensitive), .equal, .value(.integer(-1)), type: QueryValueType(.integer))),
        .and(.comparison(.count(tags, of: .array), .greaterThan, .value(.integer(1)), type: QueryValueType(.integer)), .isEmpty(name, of: .string)),
        .collectionContains(tags, element: .value(.string("a")), type: text),
        .in(.property(["rank"]), everyKindOfValue, type: QueryValueType(.integer, isOptional: true)),
        .collectionAny(tags, variable: 0, test: .comparison(.elementProperty(0, ["isDone"]), .equal, .value(.bool(true)), type: QueryValueType(.bool))),
        .collectionAll(tags, variable: 1, test: .comparison(.count(.variable(1), of: .string), .greaterThanOrEqual, .value(.integer(2)), type: QueryValueType(.integer))),
    ]

    static let queries: [DataStoreQuery] = everyKindOfNode.map { DataStoreQuery(entityName: "Note", filter: $0) } + [
        DataStoreQuery(entityName: "Note"),
        DataStoreQuery(entityName: "Note \"quoted\"", sortBy: [QuerySortKey(path: ["name"], ascending: true, kind: .string),
                                                             QuerySortKey(path: ["folder", "rank"], ascending: false, kind: .integer)],
                       fetchLimit: 100, fetchOffset: 5),
        DataStoreQuery(entityName: "Note", filter: .value(.double(0.5)), fetchLimit: 0),
        DataStoreQuery(entityName: "Note", fetchOffset: 3),
    ]

    static func encoded(_ request: QueryRequest) throws -> Data {
        let encoder = WireCoding.encoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(request)
    }

    @Test(arguments: queries)
    func theClientsJSONIsTheEncodersWithSortedKeys(_ query: DataStoreQuery) throws {
        let request = QueryRequest(query: query)
        #expect(String(decoding: try request.json(), as: UTF8.self) == String(decoding: try Self.encoded(request), as: UTF8.self))
        #expect(try WireCoding.decoder().decode(QueryRequest.self, from: request.json()).query == query)
    }

    @Test(arguments: queries)
    func theServersReaderReadsWhatTheDecoderReads(_ query: DataStoreQuery) throws {
        var reader = QueryRequestReader(Array(try QueryRequest(query: query).json()))
        #expect(reader.read()?.query == query)
    }

    @Test func aFetchIsWrittenInTheWireFormat() throws {
        let query = DataStoreQuery(entityName: "User", filter: Self.everyKindOfNode[0], fetchLimit: 100)
        #expect(String(decoding: try QueryRequest(query: query).json(), as: UTF8.self) ==
            #"{"query":{"entityName":"User","fetchLimit":100,"filter":{"comparison":{"_0":{"property":{"_0":["age"]}},"_1":"equal","_2":{"value":{"_0":{"integer":18}}},"type":{"isOptional":false,"kind":"integer"}}},"sortBy":[]}}"#)
    }

    @Test(arguments: ["cleaner", "", "Zoë \"quoted\"\n"])
    func aBatchDeletesAuthorIsWrittenAsTheEncoderWritesItAndReadBack(_ author: String) throws {
        let request = QueryRequest(query: Self.queries[0], author: author)
        #expect(String(decoding: try request.json(), as: UTF8.self) == String(decoding: try Self.encoded(request), as: UTF8.self))
        var reader = QueryRequestReader(Array(try request.json()))
        let read = reader.read()
        #expect(read?.author == author)
        #expect(read?.query == Self.queries[0])
    }

    @Test func theReaderAcceptsWhitespace() {
        var reader = QueryRequestReader(Array(#" { "query" : { "entityName" : "User" , "fetchLimit" : 2 , "sortBy" : [ ] } } "#.utf8))
        #expect(reader.read()?.query == DataStoreQuery(entityName: "User", fetchLimit: 2))
    }

    /// Other forms are left to `JSONDecoder`: it reads what it can, and says what is wrong with the rest.
    @Test(arguments: [
        #"{"query":{"sortBy":[],"entityName":"User"}}"#,
        #"{"query":{"entityName":"User","fetchLimit":1.0,"sortBy":[]}}"#,
        #"{"query":{"entityName":"User","filter":null,"sortBy":[]}}"#,
        #"{"query":{"entityName":"User","sortBy":[],"extra":1}}"#,
        #"{"query":{"entityName":"User","filter":{"value":{"_0":{"double":1e400}}},"sortBy":[]}}"#,
        #"{"query":{"entityName":"User","filter":{"value":{"_0":{"integer":1,"string":"a"}}},"sortBy":[]}}"#,
        #"{"query":{"entityName":"User","filter":{"nand":{"_0":{"identifier":{}}}},"sortBy":[]}}"#,
        #"{"query":{"entityName":"User","sortBy":[]}} x"#,
        #"{"query":{"entityName":"User","sortBy":["#,
        "",
    ])
    func theReaderLeavesOtherFormsToTheDecoder(_ body: String) throws {
        var reader = QueryRequestReader(Array(body.utf8))
        #expect(reader.read() == nil)
        let viaDecoder = try? WireCoding.decoder().decode(QueryRequest.self, from: Data(body.utf8))
        let read = try? QueryRequest.read(from: Array(body.utf8)) { try WireCoding.decoder().decode(QueryRequest.self, from: Data($0)) }
        #expect(read?.query == viaDecoder?.query)
    }

    @Test func aBodyInAnotherKeyOrderReadsThroughTheDecoder() throws {
        let body = #"{"query":{"sortBy":[],"fetchLimit":3,"entityName":"User"}}"#
        var decoded = false
        let request = try QueryRequest.read(from: Array(body.utf8)) { bytes in
            decoded = true
            return try WireCoding.decoder().decode(QueryRequest.self, from: Data(bytes))
        }
        #expect(decoded)
        #expect(request.query == DataStoreQuery(entityName: "User", fetchLimit: 3))
    }
}
