import Foundation
import OpenSwiftData

/// The WWDC SampleTrips graph, under other names so it does not clash with `Trip`. Kept here: its
/// lodging and travelers name no inverse, so RelationshipTests sees inverses inferred.
@Model final class Voyage {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Leg.voyage) var legs: [Leg] = []
    @Relationship(deleteRule: .cascade) var lodging: Lodging?
    var travelers: [Traveler] = []

    init(name: String) { self.name = name }
}

@Model final class Leg {
    var title: String
    var voyage: Voyage?
    init(title: String, voyage: Voyage? = nil) {
        self.title = title
        self.voyage = voyage
    }
}

@Model final class Lodging {
    var place: String
    var voyage: Voyage?
    init(place: String) { self.place = place }
}

@Model final class Traveler {
    var name: String
    var voyages: [Voyage] = []
    init(name: String) { self.name = name }
}

/// A ledger refuses to be deleted while it has entries, and holds at most two.
@Model final class Ledger {
    var title: String
    @Relationship(deleteRule: .deny, maximumModelCount: 2, inverse: \Entry.ledger) var entries: [Entry] = []
    init(title: String) { self.title = title }
}

@Model final class Entry {
    var amount: Int
    var ledger: Ledger?
    init(amount: Int) { self.amount = amount }
}

/// A person with a self-referencing to-one and its inferred inverse.
@Model final class Person {
    var name: String
    var mentor: Person?
    @Relationship(inverse: \Person.mentor) var mentees: [Person] = []
    init(name: String) { self.name = name }
}
