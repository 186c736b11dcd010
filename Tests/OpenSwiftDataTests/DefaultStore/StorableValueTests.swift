import Foundation
import OpenSwiftData
import Testing

@Model final class Deadline {
    var due: Date
    var maybeDue: Date?
    var weight: Double

    init(due: Date, maybeDue: Date? = nil, weight: Double = 0) {
        self.due = due
        self.maybeDue = maybeDue
        self.weight = weight
    }
}

/// The default store and the in-memory store keep what every store keeps (``StorableValues``):
/// the same dates refused with the same message, non-finite doubles kept.
@Suite struct StorableValueTests {
    enum Kind: String, CaseIterable { case sqlite, memory }

    private func context(_ kind: Kind, _ directory: TemporaryDirectory) throws -> ModelContext {
        let configuration: any DataStoreConfiguration = switch kind {
        case .sqlite: ModelConfiguration(url: directory.file("deadlines.store"))
        case .memory: InMemoryStoreConfiguration(name: "deadlines")
        }
        return ModelContext(try ModelContainer(for: Schema([Deadline.self]), configurations: [configuration]))
    }

    static let unstorable: [(seconds: Double, text: String)] = [
        (.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"), (1e20, "1e+20"), (1e308, "1e+308"), (-1e12, "-1000000000000.0"),
    ]

    @Test(arguments: Kind.allCases, unstorable)
    func aDateNoStoreKeepsIsRefusedByNameAndNothingIsSaved(kind: Kind, date: (seconds: Double, text: String)) throws {
        let directory = try TemporaryDirectory()
        let context = try context(kind, directory)
        context.insert(Deadline(due: Date(timeIntervalSinceReferenceDate: 0), maybeDue: Date(timeIntervalSinceReferenceDate: date.seconds)))
        let error = #expect(throws: (any Error).self) { try context.save() }
        let message = "Deadline.maybeDue: \(date.text) seconds since 2001-01-01 is not a date a store keeps: dates must be finite and lie in the years 1 to 9999 (UTC). Nothing was saved."
        switch kind {
        case .sqlite:
            #expect((error as? SQLiteStoreError)?.code == .invalidValue)
            #expect((error as? SQLiteStoreError)?.message == message)
        case .memory:
            #expect((error as? PersistenceError)?.code == .invalidSnapshot)
            #expect((error as? PersistenceError)?.message == message)
        }
        #expect(context.hasChanges)
        #expect(try ModelContext(context.container).fetchCount(FetchDescriptor<Deadline>()) == 0)
    }

    @Test(arguments: Kind.allCases, [Double.nan, .infinity, -.infinity])
    func aNonFiniteDoubleRoundTrips(kind: Kind, weight: Double) throws {
        let directory = try TemporaryDirectory()
        let context = try context(kind, directory)
        context.insert(Deadline(due: Date(timeIntervalSinceReferenceDate: 0), weight: weight))
        try context.save()
        let read = try #require(try ModelContext(context.container).fetch(FetchDescriptor<Deadline>()).first)
        #expect(read.weight.bitPattern == weight.bitPattern)
    }
}
