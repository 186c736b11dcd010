import Foundation
import JSONStore
import OpenSwiftData
import SwiftData
import Testing

/// Stored properties typed by their initial value, declared as apps declare them: `@Model` takes
/// their types from the compiler, through key paths, so none needs an annotation.
@Model final class Chore {
    enum Kind: String, Codable {
        case basic
        case urgent
    }

    var priority = 0
    public private(set) var content = ""
    var done = false
    var ratio = 0.5
    var repeatID = UUID()
    var due = Date(timeIntervalSinceReferenceDate: .zero)
    var income = Decimal.zero
    var kind = Kind.basic
    var labels = ["home"]
    var scores = [Int]()
    @available(macOS 14, iOS 17, *) var minutes = -15
    // A platform's deprecation, as apps keep them in the source.
    @available(swift, introduced: 5.0) @available(iOS, deprecated: 18, renamed: "priority") var rank = 1
    @Relationship(deleteRule: .cascade, inverse: \ChoreStep.chore) var steps = [ChoreStep]()

    init(content: String) {
        self.content = content
    }

    func rename(to content: String) {
        self.content = content
    }
}

@Model final class ChoreStep {
    var title = ""
    var chore: Chore?

    init(title: String) {
        self.title = title
    }
}

/// A deprecated stored property, in a class and below it: `@Model`'s expansion names it without
/// a warning (the CI build fails on any warning from these files).
@Model class Errand {
    var title = ""
    @available(*, deprecated, message: "use title") var code = 0

    init(title: String) {
        self.title = title
    }
}

@Model final class UrgentErrand: Errand {
    var deadline = Date(timeIntervalSinceReferenceDate: 0)

    init(title: String, deadline: Date) {
        self.deadline = deadline
        super.init(title: title)
    }
}

@Suite struct InferredPropertyTypeTests {
    enum Store: CaseIterable {
        case sqliteFile
        case sqliteMemory
        case inMemoryStore
        case jsonStore

        var isOnFile: Bool { self == .sqliteFile || self == .jsonStore }
    }

    @Test func inferredTypesReachTheSchema() throws {
        let entity = try #require(Schema([Chore.self]).entitiesByName["Chore"])
        let types = entity.attributes.sorted { $0.name < $1.name }.map { "\($0.name): \($0.valueType)" }
        #expect(types == [
            "content: String", "done: Bool", "due: Date", "income: Decimal", "kind: Kind", "labels: Array<String>",
            "minutes: Int", "priority: Int", "rank: Int", "ratio: Double", "repeatID: UUID", "scores: Array<Int>",
        ])
        #expect(entity.relationshipsByName["steps"]?.destination == "ChoreStep")
        #expect(entity.attributesByName["priority"]?.defaultValue as? Int == 0)
        #expect(entity.attributesByName["labels"]?.defaultValue as? [String] == ["home"])
        #expect(entity.attributesByName["kind"]?.defaultValue as? Chore.Kind == .basic)
    }

    @Test func deprecatedStoredPropertiesArePersistedInAClassAndItsSubclass() throws {
        let schema = Schema([Errand.self, UrgentErrand.self])
        #expect(schema.entitiesByName["Errand"]?.attributes.map(\.name).sorted() == ["code", "title"])
        #expect(schema.entitiesByName["UrgentErrand"]?.attributes.map(\.name).sorted() == ["code", "deadline", "title"])
        let context = ModelContext(try ModelContainer(for: schema, configurations: [ModelConfiguration(isStoredInMemoryOnly: true)]))
        context.insert(UrgentErrand(title: "Post", deadline: Date(timeIntervalSinceReferenceDate: 60)))
        try context.save()
        let errands = try context.fetch(FetchDescriptor<Errand>())
        #expect(errands.map(\.title) == ["Post"])
        #expect((errands.first as? UrgentErrand)?.deadline == Date(timeIntervalSinceReferenceDate: 60))
    }

    @Test(arguments: Store.allCases)
    func inferredTypePropertiesRoundTrip(on store: Store) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chores-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: url) }
        let repeatID = try #require(UUID(uuidString: "5B1C6F4E-8E2A-4C1D-9F3B-2D7A6E0C4B18"))
        let first = try container(store, url: url)
        let writer = ModelContext(first)
        let chore = Chore(content: "Sweep")
        writer.insert(chore)
        chore.priority = 3
        chore.rename(to: "Sweep the porch")
        chore.done = true
        chore.ratio = 0.25
        chore.repeatID = repeatID
        chore.due = Date(timeIntervalSinceReferenceDate: 86_400)
        chore.income = Decimal(string: "12.34")!
        chore.kind = .urgent
        chore.labels.append("weekly")
        chore.scores += [7, 9]
        chore.minutes = 45
        chore.steps.append(ChoreStep(title: "Broom"))
        try writer.save()

        // File stores are reopened, so the values come back from the file.
        let reader = ModelContext(store.isOnFile ? try container(store, url: url) : first)
        let read = try #require(try reader.fetch(FetchDescriptor<Chore>()).first)
        #expect(read.priority == 3)
        #expect(read.content == "Sweep the porch")
        #expect(read.done)
        #expect(read.ratio == 0.25)
        #expect(read.repeatID == repeatID)
        #expect(read.due == Date(timeIntervalSinceReferenceDate: 86_400))
        #expect(read.income == Decimal(string: "12.34")!)
        #expect(read.kind == .urgent)
        #expect(read.labels == ["home", "weekly"])
        #expect(read.scores == [7, 9])
        #expect(read.minutes == 45)
        #expect(read.steps.map(\.title) == ["Broom"])
    }

    @Test func initialValuesApplyToANewModel() {
        let chore = Chore(content: "Dust")
        #expect(chore.priority == 0)
        #expect(!chore.done)
        #expect(chore.ratio == 0.5)
        #expect(chore.due == Date(timeIntervalSinceReferenceDate: 0))
        #expect(chore.income == .zero)
        #expect(chore.kind == .basic)
        #expect(chore.labels == ["home"])
        #expect(chore.scores.isEmpty)
        #expect(chore.minutes == -15)
    }

    private func container(_ store: Store, url: URL) throws -> ModelContainer {
        switch store {
        case .sqliteFile:
            return try ModelContainer(for: Chore.self, configurations: ModelConfiguration(url: url))
        case .sqliteMemory:
            return try ModelContainer(for: Chore.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        case .inMemoryStore:
            return try ModelContainer(for: Chore.self, configurations: InMemoryStoreConfiguration())
        case .jsonStore:
            return try ModelContainer(for: Chore.self, configurations: JSONStoreConfiguration(name: "Chores", url: url))
        }
    }
}
