import Foundation
import JSONStore
import OpenSwiftData
import Testing

/// The two models of SampleTrips' history flow: the widget changes a trip's accommodation, whose
/// place and address survive its deletion in history.
@Model final class HistoryTrip {
    var name: String
    var destination: String
    @Relationship(deleteRule: .cascade, inverse: \HistoryAccommodation.trip)
    var livingAccommodation: HistoryAccommodation?

    init(name: String, destination: String) {
        self.name = name
        self.destination = destination
    }
}

@Model final class HistoryAccommodation {
    @Attribute(.preserveValueOnDeletion) var placeName: String
    @Attribute(.preserveValueOnDeletion) var address: String
    var isConfirmed: Bool
    var nights: Int?
    var trip: HistoryTrip?

    init(placeName: String, address: String, isConfirmed: Bool = false, nights: Int? = nil) {
        self.placeName = placeName
        self.address = address
        self.isConfirmed = isConfirmed
        self.nights = nights
    }
}

/// Every store that keeps history, for tests that run on each.
enum HistoryStore: String, CaseIterable, CustomTestStringConvertible {
    case sqliteFile, sqliteInMemory, inMemoryStore, jsonStore

    var testDescription: String { rawValue }

    func container() throws -> ModelContainer {
        let schema = Schema([HistoryTrip.self, HistoryAccommodation.self])
        switch self {
        case .sqliteFile:
            return try ModelContainer(for: schema, configurations: ModelConfiguration(url: ScratchFiles.store("history")))
        case .sqliteInMemory:
            return try ModelContainer(for: schema, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        case .inMemoryStore:
            return try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration()])
        case .jsonStore:
            let url = ScratchFiles.store("history").appendingPathExtension("json")
            return try ModelContainer(for: schema, configurations: [JSONStoreConfiguration(name: "history", url: url, keepsHistory: true)])
        }
    }
}

/// The history after `token` (all of it for `nil`), as SampleTrips asks for it.
func history(_ context: ModelContext, after token: DefaultHistoryToken? = nil) throws -> [DefaultHistoryTransaction] {
    guard let token else { return try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()) }
    return try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
}

/// Saves one trip per name, each in a transaction of its own.
func saveEach(_ names: [String], in context: ModelContext) throws {
    for name in names {
        context.insert(HistoryTrip(name: name, destination: "?"))
        try context.save()
    }
}
