import Foundation
import GRDB
import OpenSwiftData
import Synchronization
import Testing

/// The SQLite store's writes go through GRDB's transactions, so a GRDB transaction observer on
/// its connection sees each changed row, each commit, and can veto a commit.
@Suite struct SQLiteTransactionObserverTests {
    /// Records the events of one table, and cancels the next commit when asked to.
    private final class Recorder: TransactionObserver, @unchecked Sendable {
        struct State {
            var events: [String] = []
            var cancelsNextCommit = false
        }
        let state = Mutex(State())
        let table: String

        init(table: String) {
            self.table = table
        }

        var events: [String] { state.withLock { $0.events } }

        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
            eventKind.tableName == table
        }

        func databaseDidChange(with event: DatabaseEvent) {
            let kind = switch event.kind {
            case .insert: "insert"
            case .update: "update"
            case .delete: "delete"
            }
            state.withLock { $0.events.append("\(kind) \(event.rowID)") }
        }

        func databaseWillCommit() throws {
            let cancels = state.withLock { state in
                defer { state.cancelsNextCommit = false }
                return state.cancelsNextCommit
            }
            if cancels { throw CancellationError() }
        }

        func databaseDidCommit(_ db: Database) {
            state.withLock { $0.events.append("commit") }
        }

        func databaseDidRollback(_ db: Database) {
            state.withLock { $0.events.append("rollback") }
        }
    }

    private func observedStore() throws -> (ModelContainer, Recorder) {
        let container = try ModelContainer(for: StoreTrip.self, StoreTraveller.self, StoreVisit.self,
                                           configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let store = try #require(container.stores.first?.store as? DefaultStore)
        let recorder = Recorder(table: "StoreTrip")
        store.add(transactionObserver: recorder)
        return (container, recorder)
    }

    @Test func anObserverSeesEachRowThatSavesInsertUpdateAndDelete() throws {
        let (container, recorder) = try observedStore()
        let context = ModelContext(container)
        let lisbon = StoreTrip(name: "Lisbon")
        context.insert(lisbon)
        context.insert(StoreTrip(name: "Porto"))
        try context.save()
        lisbon.nights = 4
        try context.save()
        context.delete(lisbon)
        try context.save()

        // A fetch's read transaction changes nothing; GRDB tells observers of its commit too.
        let writes = recorder.events.split(separator: "commit", omittingEmptySubsequences: true).map(Array.init)
        #expect(writes == [["insert 1", "insert 2"], ["update 1"], ["delete 1"]])
    }

    @Test func aCommitTheObserverCancelsFailsTheSaveAndKeepsItsChanges() throws {
        let (container, recorder) = try observedStore()
        let context = ModelContext(container)
        context.insert(StoreTrip(name: "Lisbon"))
        recorder.state.withLock { $0.cancelsNextCommit = true }

        #expect(throws: (any Error).self) { try context.save() }
        #expect(recorder.events == ["insert 1", "rollback"])
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<StoreTrip>()) == 0)
        #expect(context.hasChanges)

        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<StoreTrip>()).map(\.name) == ["Lisbon"])
    }

    @Test func anObservedStoreSavesTheSameRowsAsAnUnobservedOne() throws {
        // An observed store's statements run through GRDB, an unobserved one's straight through SQLite.
        let plain = try ModelContainer(for: StoreTrip.self, StoreTraveller.self, StoreVisit.self,
                                       configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let (observed, _) = try observedStore()
        for container in [plain, observed] {
            let context = ModelContext(container)
            let trip = StoreTrip(name: "Lisbon", nights: 3)
            trip.visits = [StoreVisit(place: "Alfama"), StoreVisit(place: "Belém")]
            context.insert(trip)
            try context.save()
        }
        func contents(_ container: ModelContainer) throws -> [String] {
            let context = ModelContext(container)
            return try context.fetch(FetchDescriptor<StoreTrip>()).map { trip in
                "\(trip.name) \(trip.nights): \(trip.visits.map(\.place).sorted().joined(separator: ", "))"
            }
        }
        #expect(try contents(plain) == ["Lisbon 3: Alfama, Belém"])
        #expect(try contents(observed) == contents(plain))
    }
}
