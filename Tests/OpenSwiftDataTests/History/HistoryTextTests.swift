import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

/// A tombstone keeps a deleted model's preserved text with the scalars it was saved with.
@Suite struct HistoryTextTests {
    @Test(arguments: HistoryStore.allCases)
    func aTombstoneKeepsTextExactlyAsSaved(_ store: HistoryStore) throws {
        try expectExactTombstone(in: try store.container())
    }

    @Test func aPostgresTombstoneKeepsTextExactlyAsSaved() throws {
        let schema = Schema([HistoryTrip.self, HistoryAccommodation.self])
        let url = try TestDatabase.makeDatabase()
        try expectExactTombstone(in: try ModelContainer(for: schema, configurations: [try PostgresStoreConfiguration(schema: schema, url: url)]))
    }

    private func expectExactTombstone(in container: ModelContainer) throws {
        let context = ModelContext(container)
        let stay = HistoryAccommodation(placeName: "Cafe\u{301}", address: "Zu\u{308}rich")
        context.insert(stay)
        try context.save()
        context.delete(stay)
        try context.save()
        let deleted = try #require(try history(context).last).changes.compactMap { change -> [[UInt32]]? in
            guard case .delete(let delete as DefaultHistoryDelete<HistoryAccommodation>) = change else { return nil }
            return [delete.tombstone[\.placeName], delete.tombstone[\.address]].map { (($0 as? String) ?? "").unicodeScalars.map(\.value) }
        }
        #expect(deleted == [[[0x43, 0x61, 0x66, 0x65, 0x301], [0x5A, 0x75, 0x308, 0x72, 0x69, 0x63, 0x68]]])
    }
}
