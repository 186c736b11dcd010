import Foundation
import GRDB
import OpenSwiftData
import Testing

/// The store keeps the SQL of each query shape and binds the next query's constants into it.
@Suite struct SQLiteSelectPlanTests {
    private func store(at url: URL? = nil) throws -> (ModelContainer, DefaultStore) {
        let configuration = url.map { ModelConfiguration(url: $0) } ?? ModelConfiguration(isStoredInMemoryOnly: true)
        let container = try ModelContainer(for: StoreTrip.self, StoreBooking.self, configurations: configuration)
        return (container, try #require(container.stores.first?.store as? DefaultStore))
    }

    private func names(_ context: ModelContext, _ descriptor: FetchDescriptor<StoreTrip>) throws -> [String] {
        try context.fetch(descriptor).map(\.name)
    }

    @Test func queriesDifferingOnlyInConstantsShareOnePlanAndBindTheirOwn() throws {
        let (container, store) = try store()
        let context = ModelContext(container)
        for (name, nights) in [("a", 1), ("b", 2), ("c", 3)] { context.insert(StoreTrip(name: name, nights: nights)) }
        try context.save()
        for (name, nights) in [("a", 1), ("b", 2), ("c", 3)] {
            #expect(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { $0.name == name && $0.nights == nights })) == [name])
        }
        #expect(store.selectPlanCountForTesting == 1)
        let statement = try store.selectStatementForTesting(FetchDescriptor<StoreTrip>(predicate: #Predicate { $0.name == "z" && $0.nights == 9 }))
        #expect(statement.sql == "SELECT \(SQLiteFetchSQLTests.tripColumns) FROM \"StoreTrip\" WHERE ((\"StoreTrip\".\"name\" = ?) AND (\"StoreTrip\".\"nights\" = ?)) ORDER BY \"StoreTrip\".\"Z_PK\"")
        #expect(statement.arguments == ["z".databaseValue, 9.databaseValue])
    }

    /// The store compares a query's shape with the few it used last before hashing it: six shapes
    /// taken in turns, more than that list holds, each still find their own plan.
    @Test func shapesTakenInTurnsEachKeepTheirOwnPlan() throws {
        let (container, store) = try store()
        let context = ModelContext(container)
        for (name, nights) in [("a", 1), ("b", 2), ("c", 3)] { context.insert(StoreTrip(name: name, nights: nights)) }
        try context.save()
        var answers: [[String]] = []
        for round in 0..<3 {
            let nights = round + 1, name = ["a", "b", "c"][round]
            answers.append(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { $0.nights == nights })))
            answers.append(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { $0.nights > nights }, sortBy: [SortDescriptor(\.name)])))
            answers.append(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { $0.name == name })))
            answers.append(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { $0.name != name }, sortBy: [SortDescriptor(\.name)])))
            answers.append(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { $0.nights >= nights }, sortBy: [SortDescriptor(\.name)])))
            answers.append(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { $0.name < name }, sortBy: [SortDescriptor(\.name)])))
        }
        #expect(answers == [
            ["a"], ["b", "c"], ["a"], ["b", "c"], ["a", "b", "c"], [],
            ["b"], ["c"], ["b"], ["a", "c"], ["b", "c"], ["a"],
            ["c"], [], ["c"], ["a", "b"], ["c"], ["a", "b"],
        ])
        #expect(store.selectPlanCountForTesting == 6)
    }

    @Test func limitsAndOffsetsShareAPlanAndPageByTheirOwnValues() throws {
        let (container, store) = try store()
        let context = ModelContext(container)
        for name in ["d", "a", "c", "b"] { context.insert(StoreTrip(name: name)) }
        try context.save()
        var pages: [[String]] = []
        for (limit, offset) in [(1, 0), (2, 1), (3, 3)] {
            var descriptor = FetchDescriptor<StoreTrip>(sortBy: [SortDescriptor(\.name)])
            descriptor.fetchLimit = limit
            descriptor.fetchOffset = offset
            pages.append(try names(ModelContext(container), descriptor))
        }
        #expect(pages == [["a"], ["b", "c"], ["d"]])
        #expect(store.selectPlanCountForTesting == 1)
    }

    @Test func aNilConstantIsRenderedForItselfAndNeverTakesAnotherValuesPlan() throws {
        let (container, store) = try store()
        let context = ModelContext(container)
        context.insert(StoreTrip(name: "noted", notes: "x"))
        context.insert(StoreTrip(name: "bare"))
        try context.save()
        var wanted: String? = "x"
        #expect(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { $0.notes == wanted })) == ["noted"])
        wanted = nil
        #expect(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { $0.notes == wanted })) == ["bare"])
        #expect(store.selectPlanCountForTesting == 1)
    }

    @Test func listsOfEachLengthHaveTheirOwnPlanAndLongOnesNone() throws {
        let (container, store) = try store()
        let context = ModelContext(container)
        for name in ["a", "b", "c"] { context.insert(StoreTrip(name: name)) }
        try context.save()
        for (list, expected) in [(["a"], ["a"]), (["c", "a"], ["a", "c"]), (["b", "z"], ["b"])] {
            #expect(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { list.contains($0.name) })) == expected)
        }
        #expect(store.selectPlanCountForTesting == 2)
        // Over the threshold the list is one JSON argument: its SQL is the same for every such list.
        let long = (0..<SQLiteDialect().largeListThreshold + 1).map { "n\($0)" } + ["c"]
        #expect(try names(ModelContext(container), FetchDescriptor(predicate: #Predicate { long.contains($0.name) })) == ["c"])
        #expect(store.selectPlanCountForTesting == 2)
    }

    @Test func aQueryOnAColumnThatCanHoldNaNIsRenderedEachTimeSoASavedNaNIsSeen() throws {
        let (container, store) = try store()
        let context = ModelContext(container)
        context.insert(StoreTrip(name: "cheap", budget: 5))
        context.insert(StoreTrip(name: "dear", budget: 20))
        try context.save()
        let overTen = FetchDescriptor<StoreTrip>(predicate: #Predicate { $0.budget > 10 }, sortBy: [SortDescriptor(\.name)])
        #expect(try names(ModelContext(container), overTen) == ["dear"])
        #expect(store.selectPlanCountForTesting == 0)
        context.insert(StoreTrip(name: "unknown", budget: .nan))
        try context.save()
        // The flag now sends the filter to the context, which fetches the rows unfiltered.
        #expect(try names(ModelContext(container), overTen) == ["dear"])
    }

    @Test func aPlannedLookupOutsideATransactionSeesAnotherContainersLatestSave() throws {
        let directory = try TemporaryDirectory()
        let (container, reading) = try store(at: directory.file("plans.store"))
        let (other, _) = try store(at: directory.file("plans.store"))
        let writer = ModelContext(other)
        writer.insert(StoreBooking(hotel: "Ritz", night: 1, guest: "Ann"))
        try writer.save()
        func guests(_ hotel: String) throws -> [String] {
            try ModelContext(container).fetch(FetchDescriptor<StoreBooking>(predicate: #Predicate { $0.hotel == hotel })).map(\.guest)
        }
        #expect(try guests("Ritz") == ["Ann"])
        writer.insert(StoreBooking(hotel: "Savoy", night: 1, guest: "Bo"))
        try writer.save()
        #expect(try guests("Savoy") == ["Bo"])
        #expect(reading.selectPlanCountForTesting == 1)
    }

    /// A planned read's failure inside SQLite is the store's typed error, like any other read's,
    /// even though the read runs outside GRDB's queue.
    @Test func aPlannedReadOfATableAnotherProgramDroppedThrowsTheStoresError() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("plans.store")
        let (container, store) = try store(at: url)
        let writer = ModelContext(container)
        writer.insert(StoreBooking(hotel: "Ritz", night: 1, guest: "Ann"))
        try writer.save()
        func guests() throws -> [String] {
            try ModelContext(container).fetch(FetchDescriptor<StoreBooking>(predicate: #Predicate { $0.hotel == "Ritz" })).map(\.guest)
        }
        #expect(try guests() == ["Ann"])
        // The second fetch runs the plan's kept statement.
        #expect(try guests() == ["Ann"])
        let table = try #require(try store.readForTesting { db in
            try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND upper(name) LIKE '%STOREBOOKING%'")
        })
        let other = try DatabaseQueue(path: url.path)
        try other.writeWithoutTransaction { try $0.execute(sql: "DROP TABLE \"\(table)\"") }
        let error = try #require(throws: SQLiteStoreError.self) { try guests() }
        #expect(error.code == .sqliteFailure)
        #expect(String(describing: error).contains("no such table"))
    }

    /// A planned read runs on the connection outside GRDB's queue, under the store's own lock: a
    /// thread reading straight from the store while another saves through a container sees each
    /// save whole, and never a half-written one.
    @Test func plannedReadsOnOneThreadWhileAnotherSavesSeeEachSaveWhole() throws {
        let directory = try TemporaryDirectory()
        let (container, opened) = try store(at: directory.file("plans.store"))
        // Used from two threads on purpose: the store takes its own lock around the connection.
        nonisolated(unsafe) let store = opened
        let ritz = DataStoreQuery(entityName: "StoreBooking", filter: .comparison(.property(["hotel"]), .equal, .value(.string("Ritz")), type: QueryValueType(.string)))
        let failures = Failures()
        let seen = Seen()
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            do {
                if thread == 0 {
                    let context = ModelContext(container)
                    for night in 1...100 {
                        // Two bookings a save: a read between the two inserts would see an odd count.
                        context.insert(StoreBooking(hotel: "Ritz", night: night, guest: "early"))
                        context.insert(StoreBooking(hotel: "Ritz", night: night + 1000, guest: "late"))
                        try context.save()
                    }
                } else {
                    for _ in 0..<400 { seen.append(try store.fetchSnapshots(ritz).count) }
                }
            } catch {
                failures.record(error)
            }
        }
        #expect(failures.errors.isEmpty)
        let counts = seen.counts
        #expect(counts.count == 400)
        #expect(counts.allSatisfy { $0 % 2 == 0 && $0 <= 200 })
        #expect(counts == counts.sorted())
        #expect(try store.fetchSnapshots(ritz).count == 200)
        #expect(store.selectPlanCountForTesting == 1)
    }
}

private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Int] = []
    func append(_ count: Int) { lock.withLock { recorded.append(count) } }
    var counts: [Int] { lock.withLock { recorded } }
}
