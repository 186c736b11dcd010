import Foundation
import OpenSwiftData
import Testing

@Suite struct QueryCodableTests {
    static let everyKindOfValue: [QueryValue] = [
        .null, .bool(true), .integer(.min), .integer(.max), .double(-0.0), .double(.nan), .double(.infinity), .double(-.infinity),
        .double(0.1), .string("日本 é e\u{301}"), .date(Date(timeIntervalSince1970: -1_000_000_000.125)), .uuid(Fixtures.uuid(9)),
        .data(Data([0, 255, 7])), .identifier(Fixtures.tripID(42)), .array([.string("a"), .null, .array([])]),
    ]

    @Test func dataStoreQueryRoundTripsThroughJSON() throws {
        let predicate = #Predicate<TripRow> { trip in
            trip.name.localizedStandardContains("par") && (trip.rating ?? 0) % 2 == 1 && trip.tags.allSatisfy { $0.count > 1 }
        }
        var query = try Fixtures.translator.translate(entityName: "TripRow", predicate: predicate,
                                                      sortBy: [SortDescriptor(\.name), SortDescriptor(\.startDate, order: .reverse)],
                                                      fetchLimit: 3, fetchOffset: 1)
        query.filter = .and(query.filter!, .in(.attribute("nights"), Self.everyKindOfValue, type: .integer))
        let decoded = try JSONDecoder().decode(DataStoreQuery.self, from: JSONEncoder().encode(query))
        #expect(decoded == query)
    }

    /// Dates and data are spelled out by the value itself, so coder strategies cannot change them.
    @Test(arguments: everyKindOfValue)
    func valueRoundTripsWhateverTheCoderStrategies(_ value: QueryValue) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.dataEncodingStrategy = .custom { _, encoder in var container = encoder.singleValueContainer(); try container.encode("x") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(QueryValue.self, from: encoder.encode(value)) == value)
    }

    @Test func wireFormatNamesCasesAndLabels() throws {
        let query = DataStoreQuery(entityName: "TripRow",
                                   filter: .comparison(.attribute("name"), .equal, .string("Oslo"), type: .string),
                                   sortBy: [QuerySortKey(path: ["name"], ascending: true, kind: .string)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(query), as: UTF8.self)
        #expect(json == #"{"entityName":"TripRow","filter":{"comparison":{"_0":{"property":{"_0":["name"]}},"_1":"equal","_2":{"value":{"_0":{"string":"Oslo"}}},"type":{"isOptional":false,"kind":"string"}}},"sortBy":[{"ascending":true,"kind":"string","path":["name"]}]}"#)
    }
}
