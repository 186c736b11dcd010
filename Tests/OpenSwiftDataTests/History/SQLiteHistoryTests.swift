import Foundation
import class GRDB.Row
import OpenSwiftData
import Testing

/// History in the store file: what outlives the container that wrote it.
@Suite struct SQLiteHistoryTests {
    private let schema = Schema([HistoryTrip.self, HistoryAccommodation.self])

    @Test func tokensAndHistoryOutliveTheContainer() throws {
        let url = ScratchFiles.store("history-relaunch")
        let saved: Data
        let storeIdentifier: String
        do {
            let context = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url)))
            context.author = "app"
            context.insert(HistoryTrip(name: "Paris", destination: "France"))
            try context.save()
            let token = try #require(try history(context).last?.token)
            storeIdentifier = token.storeIdentifier
            saved = try JSONEncoder().encode(token)
            #expect(String(decoding: saved, as: UTF8.self) == "{\"\(storeIdentifier)\":1}")
        }
        let context = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url)))
        let token = try JSONDecoder().decode(DefaultHistoryToken.self, from: saved)
        #expect(token.tokenValue == [storeIdentifier: 1])
        #expect(try history(context).map(\.author) == ["app"])
        #expect(try history(context, after: token).isEmpty)
        context.insert(HistoryTrip(name: "Kyoto", destination: "Japan"))
        try context.save()
        let after = try history(context, after: token)
        #expect(after.map(\.transactionIdentifier) == [2])
        #expect(after[0].token > token)
    }

    @Test func deletedHistoryStaysDeletedAfterReopening() throws {
        let url = ScratchFiles.store("history-expiry")
        var tokens: [DefaultHistoryToken] = []
        do {
            let context = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url)))
            try saveEach(["Paris", "Kyoto"], in: context)
            tokens = try history(context).map(\.token)
            let first = tokens[0]
            try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= first }))
        }
        let context = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url)))
        #expect(try history(context).map(\.transactionIdentifier) == [2])
        #expect(try history(context, after: tokens[0]).map(\.transactionIdentifier) == [2])
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(throws: SwiftDataError.historyTokenExpired) { try history(context, after: tokens[0]) }
        #expect(try history(context, after: tokens[1]).isEmpty)
    }

    @Test func aReadOnlyConfigurationReadsHistoryButCannotDeleteIt() throws {
        let url = ScratchFiles.store("history-readonly")
        let writer = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url)))
        writer.insert(HistoryTrip(name: "Paris", destination: "France"))
        try writer.save()
        let reader = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url, allowsSave: false)))
        #expect(try history(reader).map(\.transactionIdentifier) == [1])
        let error = try #require(throws: PersistenceError.self) { try reader.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
        #expect(error.code == .readOnly)
    }

    @Test func aSaveOfNewModelsIsStoredAsOneRowAndReadAsOneInsertEach() throws {
        let url = ScratchFiles.store("history-runs")
        let container = try ModelContainer(for: schema, configurations: ModelConfiguration(url: url))
        let context = ModelContext(container)
        try saveEach(["Paris"], in: context)
        let trips = ["Kyoto", "Lima", "Oslo"].map { HistoryTrip(name: $0, destination: "Elsewhere") }
        for trip in trips { context.insert(trip) }
        try context.save()
        try saveEach(["Rome"], in: context)
        let transactions = try history(context)
        #expect(transactions.map { $0.changes.map(Self.changeIdentifier) } == [[1], [2, 3, 4], [5]])
        #expect(transactions[1].changes.map(\.changedPersistentIdentifier) == trips.map(\.persistentModelID))
        let rows = try (container.stores.first?.store as? DefaultStore)?.readForTesting { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM osd_history_changes")
        }
        #expect(rows == 3)
    }

    @Test func aBatchDeleteWithGapsIsStoredAsOneRowListingItsKeysAndReadAsOneDeleteEach() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: ScratchFiles.store("history-delete-runs")))
        let context = ModelContext(container)
        let trips = ["a", "b", "c", "d", "e", "f"].map { Trip(name: $0, destination: "Elsewhere", startDate: epoch) }
        for trip in trips { context.insert(trip) }
        try context.save()
        let doomed = trips.filter { $0.name != "c" }.map(\.persistentModelID)
        try context.delete(model: Trip.self, where: #Predicate { $0.name != "c" })
        try context.save()
        context.insert(Trip(name: "g", destination: "Elsewhere", startDate: epoch))
        try context.save()

        let transactions = try history(context)
        #expect(transactions.map { $0.changes.map(Self.changeIdentifier) } == [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11], [12]])
        #expect(transactions[1].changes.map(\.changedPersistentIdentifier) == doomed)
        #expect(transactions[1].changes.allSatisfy { if case .delete = $0 { true } else { false } })
        #expect(try changeRows(container, kind: 2) == ["1 null 1:2,4:6"])
    }

    @Test func aWholeTableDeleteIsStoredAsOneRunOfKeys() throws {
        let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(url: ScratchFiles.store("history-delete-all")))
        let context = ModelContext(container)
        let trips = ["a", "b", "c", "d"].map { Trip(name: $0, destination: "Elsewhere", startDate: epoch) }
        for trip in trips { context.insert(trip) }
        try context.save()
        let identifiers = trips.map(\.persistentModelID)
        try context.delete(model: Trip.self)
        try context.save()

        let deletes = try #require(try history(context).last)
        #expect(deletes.changes.map(Self.changeIdentifier) == [5, 6, 7, 8])
        #expect(deletes.changes.map(\.changedPersistentIdentifier) == identifiers)
        #expect(try changeRows(container, kind: 2) == ["1 4 null"])
    }

    @Test func updatesOfScatteredModelsAreStoredAsOneRowAndReadAsOneUpdateEach() throws {
        let container = try ModelContainer(for: schema, configurations: ModelConfiguration(url: ScratchFiles.store("history-update-list")))
        let context = ModelContext(container)
        let trips = ["Paris", "Kyoto", "Lima", "Oslo", "Rome", "Quito"].map { HistoryTrip(name: $0, destination: "?") }
        for trip in trips { context.insert(trip) }
        try context.save()
        let renamed = [trips[0], trips[2], trips[3], trips[5]]
        for trip in renamed { trip.destination = "Elsewhere" }
        try context.save()

        let saved = try #require(try history(context).last)
        #expect(saved.changes.map(Self.changeIdentifier) == [7, 8, 9, 10])
        #expect(saved.changes.map(\.changedPersistentIdentifier) == renamed.map(\.persistentModelID))
        let attributes = saved.changes.map { change -> [AnyKeyPath] in
            guard case .update(let update as DefaultHistoryUpdate<HistoryTrip>) = change else { return [] }
            return update.updatedAttributes.map { $0 as AnyKeyPath }
        }
        #expect(attributes == Array(repeating: [\HistoryTrip.destination], count: 4))
        #expect(try changeRows(container, kind: 1) == ["1 null 1,3:4,6"])
    }

    @Test func deletesOfConsecutiveModelsEachKeepTheirOwnTombstone() throws {
        let container = try ModelContainer(for: schema, configurations: ModelConfiguration(url: ScratchFiles.store("history-tombstone-run")))
        let context = ModelContext(container)
        let stays = [("Ritz", "15 Place Vendôme"), ("Yachiyo", "34 Nanzenji"), ("Savoy", "Strand")].map { HistoryAccommodation(placeName: $0, address: $1) }
        for stay in stays { context.insert(stay) }
        try context.save()
        context.delete(stays[0])
        context.delete(stays[1])
        try context.save()

        let deleted = try #require(try history(context).last).changes.compactMap { change -> [String?]? in
            guard case .delete(let delete as DefaultHistoryDelete<HistoryAccommodation>) = change else { return nil }
            return [delete.tombstone[\.placeName] as? String, delete.tombstone[\.address] as? String]
        }
        #expect(deleted == [["Ritz", "15 Place Vendôme"], ["Yachiyo", "34 Nanzenji"]])
    }

    @Test func interleavedInsertsOfTwoEntitiesAreOneRowEachAndReadInSaveOrder() throws {
        let container = try ModelContainer(for: schema, configurations: ModelConfiguration(url: ScratchFiles.store("history-interleaved")))
        let context = ModelContext(container)
        var inserted: [PersistentIdentifier] = []
        for name in ["Paris", "Kyoto", "Lima"] {
            let trip = HistoryTrip(name: name, destination: "?")
            let stays = ["\(name) Inn", "\(name) Hotel"].map { HistoryAccommodation(placeName: $0, address: "?") }
            context.insert(trip)
            for stay in stays { context.insert(stay) }
            try context.save()
            inserted += [trip.persistentModelID] + stays.map(\.persistentModelID)
        }
        let trips = (0..<3).map { _ in HistoryTrip(name: "?", destination: "?") }
        var order: [any PersistentModel] = []
        for trip in trips {
            context.insert(trip)
            let stays = (0..<2).map { _ in HistoryAccommodation(placeName: "?", address: "?") }
            for stay in stays { context.insert(stay) }
            order += [trip] + stays
        }
        try context.save()

        let saved = try #require(try history(context).last)
        #expect(saved.changes.map(Self.changeIdentifier) == Array(10...18))
        #expect(saved.changes.map(\.changedPersistentIdentifier) == order.map(\.persistentModelID))
        #expect(try changeRows(container, kind: 0) == ["1 null null", "1 2 null", "2 null null", "3 4 null", "3 null null", "5 6 null",
                                                       "4 6 null 10,13,16", "7 12 null 11:12,14:15,17:18"])
    }

    @Test func aDamagedHistoryRowIsACorruptStoreErrorNotAnEndlessRead() throws {
        let container = try ModelContainer(for: schema, configurations: ModelConfiguration(url: ScratchFiles.store("history-bad-rows")))
        try saveEach(["Paris"], in: ModelContext(container))
        let damages = [
            (#""lastKey" = 9223372036854775807"#, "History change 1 claims the keys 1 through 9223372036854775807"),
            (#""keys" = '3:1'"#, "History change 1 lists its keys as '3:1'"),
            (#""keys" = '1:3'"#, "History change 1 lists its keys as '1:3'"),
            (#""numbers" = '0:1'"#, "History change 1 numbers its 1 changes as '0:1'"),
            (#""numbers" = '2'"#, "History change 1 numbers its 1 changes as '2'"),
        ]
        for (damage, message) in damages {
            try (container.stores.first?.store as? DefaultStore)?.writeForTesting { db in
                try db.execute(sql: #"UPDATE osd_history_changes SET "lastKey" = NULL, "keys" = NULL, "numbers" = NULL"#)
                try db.execute(sql: "UPDATE osd_history_changes SET \(damage)")
            }
            let error = try #require(throws: SQLiteStoreError.self) { try history(ModelContext(container)) }
            #expect(error.code == .corrupt)
            #expect(error.description.contains(message), "\(damage)")
        }
    }

    /// The history rows of one kind as "key lastKey keys", and "numbers" when set, in order.
    private func changeRows(_ container: ModelContainer, kind: Int) throws -> [String]? {
        try (container.stores.first?.store as? DefaultStore)?.readForTesting { db in
            try Row.fetchAll(db, sql: #"SELECT "key", "lastKey", "keys", "numbers" FROM osd_history_changes WHERE "kind" = ? ORDER BY "Z_PK""#, arguments: [kind]).map { row in
                (["\(row[0] as Int64)", (row[1] as Int64?).map(String.init) ?? "null", (row[2] as String?) ?? "null"] + ((row[3] as String?).map { [$0] } ?? []))
                    .joined(separator: " ")
            }
        }
    }

    @Test func aMixedSaveNumbersItsChangesInOrderAndNeverReusesANumber() throws {
        let container = try ModelContainer(for: schema, configurations: ModelConfiguration(url: ScratchFiles.store("history-mixed")))
        let context = ModelContext(container)
        let trips = ["Paris", "Kyoto", "Lima", "Oslo"].map { HistoryTrip(name: $0, destination: "?") }
        let stays = [HistoryAccommodation(placeName: "Ritz", address: "15 Place Vendôme"), HistoryAccommodation(placeName: "Yachiyo", address: "34 Nanzenji")]
        for trip in trips { context.insert(trip) }
        for stay in stays { context.insert(stay) }
        try context.save()
        let (paris, lima, oslo, ritz, yachiyo) = (trips[0], trips[2], trips[3], stays[0], stays[1])
        let (yachiyoID, osloID) = (yachiyo.persistentModelID, oslo.persistentModelID)
        paris.destination = "France"
        ritz.nights = 3
        lima.destination = "Peru"
        context.delete(yachiyo)
        context.delete(oslo)
        try context.save()

        let saved = try #require(try history(context).last)
        #expect(saved.changes.map(Self.changeIdentifier) == [7, 8, 9, 10, 11])
        var updated: [PersistentIdentifier: [AnyKeyPath]] = [:]
        var deleted: [PersistentIdentifier] = []
        for change in saved.changes {
            switch change {
            case .update(let update as DefaultHistoryUpdate<HistoryTrip>): updated[update.changedPersistentIdentifier] = update.updatedAttributes.map { $0 as AnyKeyPath }
            case .update(let update as DefaultHistoryUpdate<HistoryAccommodation>): updated[update.changedPersistentIdentifier] = update.updatedAttributes.map { $0 as AnyKeyPath }
            case .update: Issue.record("an update of another model")
            case .delete(let delete): deleted.append(delete.changedPersistentIdentifier)
            case .insert: Issue.record("an update or delete was read as an insert")
            }
        }
        #expect(saved.changes.prefix(3).allSatisfy { if case .update = $0 { true } else { false } })
        #expect(updated == [paris.persistentModelID: [\HistoryTrip.destination], lima.persistentModelID: [\HistoryTrip.destination],
                            ritz.persistentModelID: [\HistoryAccommodation.nights]])
        #expect(Set(deleted) == [yachiyoID, osloID])
        let stayDeleted = saved.changes.compactMap { if case .delete(let delete as DefaultHistoryDelete<HistoryAccommodation>) = $0 { delete } else { nil } }
        #expect(stayDeleted.map { [$0.tombstone[\.placeName] as? String, $0.tombstone[\.address] as? String] } == [["Yachiyo", "34 Nanzenji"]])
        let store = try #require(container.stores.first?.store as? DefaultStore)
        let rows = try store.readForTesting { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM osd_history_changes WHERE transactionNumber = 2") }
        // Paris's and Lima's updates are one row; Ritz's update, Yachiyo's delete (with its tombstone) and Oslo's are one each.
        #expect(rows == 4)

        // Numbers keep counting after the history that used them is deleted.
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        try saveEach(["Rome"], in: context)
        #expect(try history(context).map { $0.changes.map(Self.changeIdentifier) } == [[12]])
    }

    @Test func historyWrittenOneRowPerInsertStillReads() throws {
        let url = ScratchFiles.store("history-rows")
        do {
            let container = try ModelContainer(for: schema, configurations: ModelConfiguration(url: url))
            try saveEach(["Paris", "Kyoto"], in: ModelContext(container))
            // The layout of files written before changes were kept as runs or lists.
            try (container.stores.first?.store as? DefaultStore)?.writeForTesting { db in
                try db.execute(sql: "ALTER TABLE osd_history_changes DROP COLUMN lastKey")
                try db.execute(sql: "ALTER TABLE osd_history_changes DROP COLUMN keys")
                try db.execute(sql: "ALTER TABLE osd_history_changes DROP COLUMN numbers")
            }
        }
        let reader = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url, allowsSave: false)))
        #expect(try history(reader).map { $0.changes.map(Self.changeIdentifier) } == [[1], [2]])
        let writer = ModelContext(try ModelContainer(for: schema, configurations: ModelConfiguration(url: url)))
        for name in ["Lima", "Oslo"] { writer.insert(HistoryTrip(name: name, destination: "Elsewhere")) }
        try writer.save()
        #expect(try history(writer).map { $0.changes.map(Self.changeIdentifier) } == [[1], [2], [3, 4]])
    }

    private static func changeIdentifier(_ change: HistoryChange) -> Int64? {
        switch change {
        case .insert(let insert): insert.changeIdentifier as? Int64
        case .update(let update): update.changeIdentifier as? Int64
        case .delete(let delete): delete.changeIdentifier as? Int64
        }
    }
}
