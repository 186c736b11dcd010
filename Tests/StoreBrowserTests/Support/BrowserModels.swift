import Foundation
import OpenSwiftData

/// A unique code (keyset paging), an optional Bool, a collection attribute, and a relationship
/// whose delete rule is deny.
@Model final class BrowsedCity {
    @Attribute(.unique) var code: String
    var name: String
    var population: Int
    var isCapital: Bool?
    var tags: [String] = []
    @Relationship(deleteRule: .deny, inverse: \BrowsedSight.city) var sights: [BrowsedSight] = []

    init(code: String, name: String, population: Int, isCapital: Bool? = nil, tags: [String] = []) {
        self.code = code
        self.name = name
        self.population = population
        self.isCapital = isCapital
        self.tags = tags
    }
}

@Model final class BrowsedSight {
    var title: String
    var city: BrowsedCity?

    init(title: String, city: BrowsedCity? = nil) {
        self.title = title
        self.city = city
    }
}

/// A class and a subclass, with a relationship of the class to itself.
@Model class BrowsedVehicle {
    var label: String
    @Relationship(deleteRule: .nullify) var towedBy: BrowsedVehicle?

    init(label: String) {
        self.label = label
    }
}

@Model final class BrowsedTruck: BrowsedVehicle {
    var axles: Int

    init(label: String, axles: Int) {
        self.axles = axles
        super.init(label: label)
    }
}

let citySchema = Schema([BrowsedCity.self, BrowsedSight.self])
let vehicleSchema = Schema([BrowsedVehicle.self, BrowsedTruck.self])
