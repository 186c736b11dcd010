import Foundation
@testable import JSONStore
import OpenSwiftData
import Testing

/// The history element written by hand is the one the encoder writes, byte for byte, in every
/// layout and date form, text needing escapes included.
@Suite struct HistoryJSONWriterTests {
    /// Two transactions: inserts of a saved and an unsaved model, updates with and without
    /// names, deletes with and without a tombstone; text with quotes, slashes, controls and
    /// characters beyond ASCII.
    private static let history = #"""
        {"deletedThrough": 3, "lastChange": 11, "lastTransaction": 5, "records": [
          {"transactionIdentifier": 4, "timestamp": 786000000.25, "author": "writer \"q\" \\ a/b\té 😀",
           "bundleIdentifier": "org.example/app", "processIdentifier": "4242", "changes": [
            {"changeIdentifier": 5, "kind": "insert", "changedPersistentIdentifier":
              {"implementation": {"entityName": "HistoryNote", "primaryKey": 7, "storeIdentifier": "notes.json"}}},
            {"changeIdentifier": 6, "kind": "insert", "changedPersistentIdentifier":
              {"implementation": {"entityName": "HistoryNote", "primaryKey": "tmp \"1\"/é"}}},
            {"changeIdentifier": 7, "kind": "update", "updatedAttributes": ["title", "ünï/code"], "changedPersistentIdentifier":
              {"implementation": {"entityName": "HistoryNote", "primaryKey": -2, "storeIdentifier": "my store"}}},
            {"changeIdentifier": 8, "kind": "update", "updatedAttributes": [], "changedPersistentIdentifier":
              {"implementation": {"entityName": "HistoryNote", "primaryKey": 8, "storeIdentifier": "notes.json"}}},
            {"changeIdentifier": 9, "kind": "delete", "tombstone": {"title": "gone \"x\""}, "changedPersistentIdentifier":
              {"implementation": {"entityName": "HistoryNote", "primaryKey": 9, "storeIdentifier": "notes.json"}}},
            {"changeIdentifier": 10, "kind": "delete", "changedPersistentIdentifier":
              {"implementation": {"entityName": "HistoryNote", "primaryKey": 10, "storeIdentifier": "notes.json"}}}]},
          {"transactionIdentifier": 5, "timestamp": 786000100, "bundleIdentifier": "app", "processIdentifier": "1",
           "changes": [{"changeIdentifier": 11, "kind": "insert", "changedPersistentIdentifier":
              {"implementation": {"entityName": "HistoryNote", "primaryKey": 11, "storeIdentifier": "notes.json"}}}]}]}
        """#

    private static func book() throws -> HistoryBook {
        _ = Schema([HistoryNote.self])  // Registers the entity, so the tombstone's title is read.
        return try JSONDecoder().decode(HistoryBook.self, from: Data(history.utf8))
    }

    private static let layouts: [(JSONStoreConfiguration.OutputFormatting, JSONStoreConfiguration.DateEncoding)] = [
        (.compact, .iso8601), (.compact, .secondsSinceReferenceDate), (.prettyPrinted, .iso8601), (.prettyPrinted, .secondsSince1970),
    ]

    @Test(arguments: layouts)
    func theWrittenHistoryIsTheEncodersByteForByte(formatting: JSONStoreConfiguration.OutputFormatting,
                                                    dates: JSONStoreConfiguration.DateEncoding) throws {
        let coder = ArchiveCoder(configuration: JSONStoreConfiguration(
            name: "notes", url: URL(filePath: "/tmp/notes.json"), outputFormatting: formatting, dateEncoding: dates, keepsHistory: true))
        let book = try Self.book()
        let written = try coder.encode(book)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: try coder.encodeWithEncoderForTesting(book), as: UTF8.self))
        #expect(try coder.encode(HistoryBook()) == coder.encodeWithEncoderForTesting(HistoryBook()))
        let read = try #require(try coder.history(in: coder.file([written], count: 1)))
        #expect(try coder.encode(read) == written)
    }

    @Test func theTestHistoryHoldsEveryKindOfChangeAndTheTombstonesValue() throws {
        let records = try Self.book().records
        #expect(records.map(\.changes.count) == [6, 1])
        guard case .delete(let values) = records[0].changes[4].kind else {
            Issue.record("the fifth change is not a delete")
            return
        }
        #expect(values.byName["title"] as? String == "gone \"x\"")
        #expect(records[0].changes[1].identifier.isTemporary)
    }
}
