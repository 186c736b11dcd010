import Foundation
import OpenSwiftData
import Testing

@Suite struct SQLiteConcurrencyTests {
    @Test func twoThreadsSavingThroughTheirOwnContextsLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("threads.store")
        let container = try ModelContainer(for: StoreVisit.self, configurations: ModelConfiguration(url: url))
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            do {
                let context = ModelContext(container)
                for batch in 0..<20 {
                    for item in 0..<10 { context.insert(StoreVisit(place: "\(thread)-\(batch)-\(item)")) }
                    try context.save()
                    _ = try context.fetchCount(FetchDescriptor<StoreVisit>())
                }
            } catch {
                failures.record(error)
            }
        }
        #expect(failures.errors.isEmpty)
        let places = try ModelContext(container).fetch(FetchDescriptor<StoreVisit>()).map(\.place)
        #expect(places.count == 400)
        #expect(Set(places).count == 400)
        let second = try ModelContainer(for: StoreVisit.self, configurations: ModelConfiguration(url: url))
        #expect(try ModelContext(second).fetchCount(FetchDescriptor<StoreVisit>()) == 400)
    }
}

final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    func record(_ error: any Error) { lock.withLock { recorded.append(String(describing: error)) } }
    var errors: [String] { lock.withLock { recorded } }
}
