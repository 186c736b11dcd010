import Foundation
import OpenSwiftData
import Testing

@Suite struct SQLiteQueryFunctionTests {
    static func call(_ name: String, _ arguments: [QueryValue]) throws -> QueryValue {
        let function = try #require(SQLiteQueryRenderer.functions.first { $0.name == name })
        #expect(function.argumentCount == arguments.count)
        return try function.evaluate(arguments)
    }

    @Test func registersTheFourFunctionsTheSQLCalls() {
        #expect(SQLiteQueryRenderer.functions.map(\.name) == ["osd_contains", "osd_starts_with", "osd_compare", "osd_character_count"])
    }

    /// Every pair of sample strings gives what the Swift construct gives.
    @Test func functionsComputeWhatSwiftComputes() throws {
        for string in RandomRows.strings {
            #expect(try Self.call("osd_character_count", [.string(string)]) == .integer(Int64(string.count)))
            for other in RandomRows.strings {
                let predicate = #Predicate<TripRow> { $0.name.contains(other) }
                #expect(try Self.call("osd_contains", [.string(string), .string(other), .integer(0)]) == .bool(try predicate.evaluate(TripRow(name: string))))
                #expect(try Self.call("osd_contains", [.string(string), .string(other), .integer(7)]) == .bool(string.localizedStandardContains(other)))
                #expect(try Self.call("osd_starts_with", [.string(string), .string(other)]) == .bool(string.starts(with: other)))
                #expect(try Self.call("osd_compare", [.string(string), .string(other), .integer(1)]) == .integer(Int64(string.caseInsensitiveCompare(other).rawValue)))
                #expect(try Self.call("osd_compare", [.string(string), .string(other), .integer(4)]) == .integer(Int64(string.localizedCompare(other).rawValue)))
            }
        }
    }

    @Test func nullArgumentGivesNull() throws {
        #expect(try Self.call("osd_contains", [.null, .string("a"), .integer(0)]) == .null)
        #expect(try Self.call("osd_character_count", [.null]) == .null)
    }

    @Test func graphemeClustersAreNotSplit() throws {
        #expect(try Self.call("osd_contains", [.string("q\u{303}"), .string("q"), .integer(0)]) == .bool(false))
        #expect(try Self.call("osd_starts_with", [.string("e\u{301}"), .string("e")]) == .bool(false))
        #expect(try Self.call("osd_character_count", [.string("🇫🇷")]) == .integer(1))
    }
}
