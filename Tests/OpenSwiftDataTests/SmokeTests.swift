import Foundation
import OpenSwiftData
import Testing

@Test func insertedTripIsFetchedBackWithItsValues() throws {
    let container = try ModelContainer(for: Trip.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    let context = ModelContext(container)
    let trip = Trip(name: "Paris", destination: "France", startDate: Date(timeIntervalSince1970: 0))
    context.insert(trip)
    try context.save()
    let fetched = try ModelContext(container).fetch(FetchDescriptor<Trip>())
    #expect(fetched.map(\.name) == ["Paris"])
}
