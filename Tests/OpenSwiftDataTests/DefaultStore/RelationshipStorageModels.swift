import Foundation
import OpenSwiftData

// The model graph of the relationship storage tests: a to-one in each direction (a one-to-one),
// a one-to-many, a many-to-many, and a to-one without inverse that can form a cycle.

@Model final class RelTrip {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \RelStay.trip) var accommodation: RelStay?
    @Relationship(deleteRule: .cascade, inverse: \RelItem.trip) var bucketList: [RelItem] = []
    @Relationship(inverse: \RelTraveler.trips) var travelers: [RelTraveler] = []
    var companion: RelTrip?

    init(name: String) {
        self.name = name
    }
}

@Model final class RelItem {
    var title: String
    var isDone: Bool
    var trip: RelTrip?

    init(title: String, isDone: Bool = false) {
        self.title = title
        self.isDone = isDone
    }
}

@Model final class RelStay {
    var place: String
    var trip: RelTrip?

    init(place: String) {
        self.place = place
    }
}

@Model final class RelTraveler {
    var name: String
    var trips: [RelTrip] = []

    init(name: String) {
        self.name = name
    }
}

enum RelationshipGraph {
    static let types: [any PersistentModel.Type] = [RelTrip.self, RelItem.self, RelStay.self, RelTraveler.self]

    /// Paris (3 items, one done; stays at Hôtel Lutetia; Ana and Ben), Rome (1 open item; Ana),
    /// Oslo (nothing), Paris and Rome each other's companion.
    static func insert(into context: ModelContext) {
        let ana = RelTraveler(name: "Ana")
        let ben = RelTraveler(name: "Ben")
        let paris = RelTrip(name: "Paris")
        let rome = RelTrip(name: "Rome")
        let oslo = RelTrip(name: "Oslo")
        for trip in [paris, rome, oslo] { context.insert(trip) }
        paris.accommodation = RelStay(place: "Hôtel Lutetia")
        paris.bucketList = [RelItem(title: "Louvre", isDone: true), RelItem(title: "Eiffel Tower"), RelItem(title: "Seine cruise")]
        rome.bucketList = [RelItem(title: "Colosseum")]
        paris.travelers = [ana, ben]
        rome.travelers = [ana]
        paris.companion = rome
        rome.companion = paris
    }
}
