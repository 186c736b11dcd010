import Foundation
import OpenSwiftData
import Testing

/// SampleTrips' `DataModel+UnreadTrips`: the app finds the trips whose accommodation the widget
/// changed since the app's last token, by another author than itself, then keeps the new token.
@Suite struct SampleTripsHistoryTests {
    /// The trips of the widget's accommodation changes after `token`, and the token to keep.
    private func unreadTrips(_ container: ModelContainer, after token: DefaultHistoryToken?) throws
        -> (inserted: Set<String>, updated: Set<String>, deleted: Set<String>, token: DefaultHistoryToken?) {
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        let author = "widget"
        if let token {
            descriptor.predicate = #Predicate { transaction in
                (transaction.token > token) && (transaction.author == author)
            }
        } else {
            descriptor.predicate = #Predicate { $0.author == author }
        }
        let transactions = try ModelContext(container).fetchHistory(descriptor)
        let context = ModelContext(container)
        var inserted: Set<String> = [], updated: Set<String> = [], deleted: Set<String> = []
        for transaction in transactions {
            for change in transaction.changes {
                let modelID = change.changedPersistentIdentifier
                switch change {
                case .insert(_ as DefaultHistoryInsert<HistoryAccommodation>):
                    let trip = try context.fetch(FetchDescriptor<HistoryTrip>(predicate: #Predicate { $0.livingAccommodation?.persistentModelID == modelID })).first
                    inserted.insert(trip?.name ?? "?")
                case .update(_ as DefaultHistoryUpdate<HistoryAccommodation>):
                    let trip = try context.fetch(FetchDescriptor<HistoryTrip>(predicate: #Predicate { $0.livingAccommodation?.persistentModelID == modelID })).first
                    updated.insert(trip?.name ?? "?")
                case .delete(let delete as DefaultHistoryDelete<HistoryAccommodation>):
                    deleted.insert(delete.tombstone[\.placeName] as? String ?? "?")
                default:
                    break
                }
            }
        }
        return (inserted, updated, deleted, transactions.last?.token ?? token)
    }

    @Test(arguments: HistoryStore.allCases)
    func appFindsTheTripsWhoseAccommodationTheWidgetChanged(store: HistoryStore) throws {
        let container = try store.container()
        let app = ModelContext(container)
        app.author = "app"
        let paris = HistoryTrip(name: "Paris", destination: "France")
        let kyoto = HistoryTrip(name: "Kyoto", destination: "Japan")
        let lima = HistoryTrip(name: "Lima", destination: "Peru")
        for trip in [paris, kyoto, lima] { app.insert(trip) }
        paris.livingAccommodation = HistoryAccommodation(placeName: "Hôtel du Nord", address: "102 Quai de Jemmapes")
        lima.livingAccommodation = HistoryAccommodation(placeName: "Casa Andina", address: "Av. La Paz 463")
        try app.save()

        // The app's own changes are not the widget's.
        let first = try unreadTrips(container, after: nil)
        #expect(first.inserted.isEmpty && first.updated.isEmpty && first.deleted.isEmpty)
        #expect(first.token == nil)
        let appToken = try #require(try history(app).last?.token)

        let widget = ModelContext(container)
        widget.author = "widget"
        let tripID = kyoto.persistentModelID
        let widgetKyoto = try #require(try widget.fetch(FetchDescriptor<HistoryTrip>(predicate: #Predicate { $0.persistentModelID == tripID })).first)
        widgetKyoto.livingAccommodation = HistoryAccommodation(placeName: "Ryokan Yachiyo", address: "34 Nanzenji")
        let parisID = paris.persistentModelID
        let widgetParis = try #require(try widget.fetch(FetchDescriptor<HistoryTrip>(predicate: #Predicate { $0.persistentModelID == parisID })).first)
        widgetParis.livingAccommodation?.isConfirmed = true
        try widget.save()
        let limaID = lima.persistentModelID
        let widgetLima = try #require(try widget.fetch(FetchDescriptor<HistoryTrip>(predicate: #Predicate { $0.persistentModelID == limaID })).first)
        widget.delete(try #require(widgetLima.livingAccommodation))
        try widget.save()

        let unread = try unreadTrips(container, after: appToken)
        #expect(unread.inserted == ["Kyoto"])
        #expect(unread.updated == ["Paris"])
        #expect(unread.deleted == ["Casa Andina"])

        // The app keeps the new token (as JSON, as SampleTrips keeps it in UserDefaults): nothing is unread after it.
        let saved = try JSONEncoder().encode(try #require(unread.token))
        let restored = try JSONDecoder().decode(DefaultHistoryToken.self, from: saved)
        let again = try unreadTrips(container, after: restored)
        #expect(again.inserted.isEmpty && again.updated.isEmpty && again.deleted.isEmpty)
        #expect(again.token == restored)
    }
}
