import Foundation
import OpenSwiftData
import Testing

extension DataStoreConformance.Check {
    /// SampleTrips' `DataModel+UnreadTrips` on the store: the app finds the trips whose
    /// accommodation the widget (another author) changed since the app's token, reads the inserts,
    /// updates and deletes by concrete type, then keeps the new token, encoded, for next time.
    static let sampleTripsHistory = Self("theAppFindsTheTripsWhoseAccommodationTheWidgetChanged") { harness in
        let schema = Schema([ConformanceTrip.self, ConformanceStay.self])
        let container = try ModelContainer(for: schema, configurations: [harness.kit.makeConfiguration(schema, harness.location)])
        let app = ModelContext(container)
        app.author = "app"
        let paris = ConformanceTrip(name: "Paris"), kyoto = ConformanceTrip(name: "Kyoto"), lima = ConformanceTrip(name: "Lima")
        for trip in [paris, kyoto, lima] { app.insert(trip) }
        paris.livingAccommodation = ConformanceStay(placeName: "Hôtel du Nord", address: "102 Quai de Jemmapes")
        lima.livingAccommodation = ConformanceStay(placeName: "Casa Andina", address: "Av. La Paz 463")
        try app.save()
        let appHistory: [DefaultHistoryTransaction]
        do {
            appHistory = try app.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        } catch let error as PersistenceError where error.code == .unavailable {
            return
        }
        let appToken = try #require(appHistory.last?.token)
        #expect(try unreadTrips(container, after: nil).token == nil, "the app's own changes are not the widget's")

        let widget = ModelContext(container)
        widget.author = "widget"
        func widgetTrip(_ trip: ConformanceTrip) throws -> ConformanceTrip {
            let id = trip.persistentModelID
            return try #require(try widget.fetch(FetchDescriptor<ConformanceTrip>(predicate: #Predicate { $0.persistentModelID == id })).first)
        }
        try widgetTrip(kyoto).livingAccommodation = ConformanceStay(placeName: "Ryokan Yachiyo", address: "34 Nanzenji")
        try widgetTrip(paris).livingAccommodation?.isConfirmed = true
        try widget.save()
        widget.delete(try #require(try widgetTrip(lima).livingAccommodation))
        try widget.save()

        let unread = try unreadTrips(container, after: appToken)
        #expect(unread.inserted == ["Kyoto"])
        #expect(unread.updated == ["Paris"])
        #expect(unread.deleted == ["Casa Andina"])
        let restored = try JSONDecoder().decode(DefaultHistoryToken.self, from: try JSONEncoder().encode(try #require(unread.token)))
        let again = try unreadTrips(container, after: restored)
        #expect(again.inserted.isEmpty && again.updated.isEmpty && again.deleted.isEmpty)
        #expect(again.token == restored)
    }

    /// The trips of the widget's accommodation changes after `token`, and the token to keep.
    private static func unreadTrips(_ container: ModelContainer, after token: DefaultHistoryToken?) throws
        -> (inserted: Set<String>, updated: Set<String>, deleted: Set<String>, token: DefaultHistoryToken?) {
        let author = "widget"
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author == author })
        if let token {
            descriptor.predicate = #Predicate { ($0.token > token) && ($0.author == author) }
        }
        let context = ModelContext(container)
        let transactions = try context.fetchHistory(descriptor)
        func tripName(_ stay: PersistentIdentifier) throws -> String {
            try context.fetch(FetchDescriptor<ConformanceTrip>(predicate: #Predicate { $0.livingAccommodation?.persistentModelID == stay })).first?.name ?? "?"
        }
        var inserted: Set<String> = [], updated: Set<String> = [], deleted: Set<String> = []
        for change in transactions.flatMap(\.changes) {
            switch change {
            case .insert(let insert as DefaultHistoryInsert<ConformanceStay>): inserted.insert(try tripName(insert.changedPersistentIdentifier))
            case .update(let update as DefaultHistoryUpdate<ConformanceStay>): updated.insert(try tripName(update.changedPersistentIdentifier))
            case .delete(let delete as DefaultHistoryDelete<ConformanceStay>): deleted.insert(delete.tombstone[\.placeName] as? String ?? "?")
            default: break
            }
        }
        return (inserted, updated, deleted, transactions.last?.token ?? token)
    }
}
