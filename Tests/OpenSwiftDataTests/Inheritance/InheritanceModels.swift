import Foundation
import OpenSwiftData

/// A three-class hierarchy, shaped like SampleTrips' `Trip`, `PersonalTrip` and `BusinessTrip`.
@Model class Journey {
    #Unique<Journey>([\.name])
    var name: String
    var start: Date
    @Relationship(deleteRule: .cascade, inverse: \Stop.journey) var stops: [Stop] = []

    init(name: String, start: Date) {
        self.name = name
        self.start = start
    }
}

@Model final class PersonalJourney: Journey {
    enum Reason: String, Codable, CaseIterable {
        case family, reunion, wellness
    }

    var reason: Reason
    var companion: String?

    init(name: String, start: Date, reason: Reason) {
        self.reason = reason
        super.init(name: name, start: start)
    }
}

@Model class BusinessJourney: Journey {
    var perdiem: Double = 0.0

    init(name: String, start: Date, perdiem: Double) {
        self.perdiem = perdiem
        super.init(name: name, start: start)
    }
}

/// A third level, to check that the most derived class's layout wins.
@Model final class ConferenceJourney: BusinessJourney {
    var talk: String

    init(name: String, start: Date, perdiem: Double, talk: String) {
        self.talk = talk
        super.init(name: name, start: start, perdiem: perdiem)
    }
}

/// Related to the hierarchy's root, so its `journey` may hold any subclass.
@Model final class Stop {
    var place: String
    var journey: Journey?

    init(place: String) { self.place = place }
}

let journeyTypes: [any PersistentModel.Type] = [Journey.self, PersonalJourney.self, BusinessJourney.self, ConferenceJourney.self, Stop.self]
