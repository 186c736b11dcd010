import Foundation
import NIOPosix
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Testing

@Model final class PGTicket {
    #Unique<PGTicket>([\.code])
    var code: String
    var seats: Int

    init(code: String, seats: Int) {
        self.code = code
        self.seats = seats
    }
}

@Suite struct PostgresStoreTests {
    private func configuration(_ url: String) throws -> PostgresStoreConfiguration {
        try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: url)
    }

    @Test func twoStoresOnOneDatabaseShareTheStoreIdentifierAndEachOthersSaves() throws {
        let url = try TestDatabase.makeDatabase()
        let first = try ModelContainer(for: PGTicket.self, configurations: try configuration(url))
        let second = try ModelContainer(for: PGTicket.self, configurations: try configuration(url))
        let writer = ModelContext(first)
        writer.insert(PGTicket(code: "A1", seats: 2))
        try writer.save()
        let seen = try ModelContext(second).fetch(FetchDescriptor<PGTicket>())
        #expect(seen.map(\.code) == ["A1"])
        #expect(seen.first?.persistentModelID == (try writer.fetch(FetchDescriptor<PGTicket>())).first?.persistentModelID)
    }

    @Test func insertEqualOnUniqueCodeUpdatesTheStoredModelAcrossStores() throws {
        let url = try TestDatabase.makeDatabase()
        let first = ModelContext(try ModelContainer(for: PGTicket.self, configurations: try configuration(url)))
        let second = ModelContext(try ModelContainer(for: PGTicket.self, configurations: try configuration(url)))
        first.insert(PGTicket(code: "B7", seats: 1))
        try first.save()
        let again = PGTicket(code: "B7", seats: 4)
        second.insert(again)
        try second.save()
        let stored = try ModelContext(try ModelContainer(for: PGTicket.self, configurations: try configuration(url))).fetch(FetchDescriptor<PGTicket>())
        #expect(stored.map(\.seats) == [4])
        #expect(stored.first?.persistentModelID == again.persistentModelID)
    }

    @Test func synchronousCallOnAnEventLoopThreadIsRefusedNotDeadlocked() throws {
        let store = try PostgresStore(try configuration(try TestDatabase.makeDatabase()))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let error = try group.next().submit { () -> PostgresStoreError? in
            do {
                try store.erase()
                return nil
            } catch let error as PostgresStoreError {
                return error
            } catch {
                return nil
            }
        }.wait()
        #expect(error?.code == .calledOnEventLoop)
    }

    @Test func unreachableServerGivesConnectionFailed() throws {
        let error = try #require(throws: PostgresStoreError.self) {
            try PostgresStore(try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: "postgres://nobody@127.0.0.1:1/none"))
        }
        #expect(error.code == .connectionFailed)
    }
}

@Suite struct PostgresNULTests {
    private func container(_ url: String) throws -> ModelContainer {
        try ModelContainer(for: PGTicket.self, configurations: try PostgresStoreConfiguration(schema: Schema([PGTicket.self]), url: url))
    }

    @Test func aStringHoldingNULIsRefusedAsAnInvalidValueAndNothingIsSaved() throws {
        let container = try container(try TestDatabase.makeDatabase())
        let context = ModelContext(container)
        context.insert(PGTicket(code: "ok", seats: 1))
        context.insert(PGTicket(code: "A\u{0}1", seats: 2))
        let error = try #require(throws: PostgresStoreError.self) { try context.save() }
        #expect(error.code == .invalidValue)
        #expect(error.message == "PGTicket.code cannot be stored: the string holds NUL (U+0000), which PostgreSQL's text cannot hold; remove the character, or keep such text in a Data property. Nothing was saved.")
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<PGTicket>()) == 0)
        #expect(context.insertedModelsArray.count == 2)
    }

    @Test func aPredicateComparingWithAStringHoldingNULRunsInMemory() throws {
        let container = try container(try TestDatabase.makeDatabase())
        let context = ModelContext(container)
        context.insert(PGTicket(code: "A", seats: 1))
        context.insert(PGTicket(code: "B", seats: 2))
        try context.save()
        let nul = "A\u{0}"
        let reader = ModelContext(container)
        #expect(try reader.fetch(FetchDescriptor<PGTicket>(predicate: #Predicate { $0.code == nul })).isEmpty)
        #expect(try reader.fetch(FetchDescriptor<PGTicket>(predicate: #Predicate { $0.code > nul })).map(\.code) == ["B"])
    }

    @Test func anAuthorHoldingNULIsRefusedAsAnInvalidValue() throws {
        let context = ModelContext(try container(try TestDatabase.makeDatabase()))
        context.author = "a\u{0}"
        context.insert(PGTicket(code: "A", seats: 1))
        let error = try #require(throws: PostgresStoreError.self) { try context.save() }
        #expect(error.code == .invalidValue)
        #expect(error.message.contains("author holds NUL"))
    }
}
