import DataStoreTesting
import Foundation
import OpenSwiftData
import PostgresStore
import PostgresTestSupport
import Synchronization
import Testing

/// Many writers on one database, each with a container of its own (as separate servers have):
/// every acknowledged save is stored once, and `#Unique` holds across all of them.
@Suite struct ConcurrentWriterTests {
    @Test func sixteenWritersKeepEveryAcknowledgedSaveOnceAndTheConstraint() async throws {
        try await withBlockingWork(runSixteenWriters)
    }

    private func runSixteenWriters() throws {
        let url = try TestDatabase.makeDatabase()
        let schema = Schema([PGTicket.self])
        _ = try PostgresStore(try PostgresStoreConfiguration(schema: schema, url: url))
        let acknowledged = Mutex<Set<String>>([])
        let saves = Mutex(0)
        let failures = Mutex<[String]>([])
        let deadline = Date().addingTimeInterval(4)
        DispatchQueue.concurrentPerform(iterations: 16) { writer in
            do {
                let container = try ModelContainer(for: schema, configurations: [try PostgresStoreConfiguration(schema: schema, url: url, poolSize: 1)])
                var round = 0
                while Date() < deadline {
                    let context = ModelContext(container)
                    // Half the codes are shared by every writer, so their inserts meet on the constraint.
                    let code = round.isMultiple(of: 2) ? "shared-\(round % 20)" : "own-\(writer)-\(round)"
                    context.insert(PGTicket(code: code, seats: writer))
                    try context.save()
                    acknowledged.withLock { _ = $0.insert(code) }
                    saves.withLock { $0 += 1 }
                    round += 1
                }
            } catch {
                failures.withLock { $0.append("writer \(writer): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let reader = ModelContext(try ModelContainer(for: schema, configurations: [try PostgresStoreConfiguration(schema: schema, url: url)]))
        let stored = try reader.fetch(FetchDescriptor<PGTicket>())
        let codes = stored.map(\.code)
        #expect(Set(codes).count == codes.count, "no code is stored twice")
        #expect(Set(codes) == acknowledged.withLock { $0 }, "every acknowledged code is stored")
        #expect(codes.count > 40)
        // Retried saves rewrite their history with the rest, so each save is one transaction.
        let history = try reader.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == saves.withLock { $0 }, "one history transaction per acknowledged save")
        let inserts = history.flatMap(\.changes).filter { if case .insert = $0 { true } else { false } }
        #expect(inserts.count == codes.count, "an insert merged into a stored ticket is recorded as its update")
    }
}
