import Foundation
import OpenSwiftData

/// A hierarchy whose base class is the destination of every kind of relationship the SQLite
/// store keeps: a to-one (`Driver.favourite`), a one-to-many read through the base's to-one
/// (`Garage.vehicles`) and a many-to-many (`Driver.vehicles`, `Vehicle.drivers`).
@Model class Vehicle {
    #Unique<Vehicle>([\.plate])
    var plate: String
    var garage: Garage?
    @Relationship(inverse: \Driver.vehicles) var drivers: [Driver] = []

    init(plate: String) { self.plate = plate }
}

@Model final class Car: Vehicle {
    var seats: Int

    init(plate: String, seats: Int) {
        self.seats = seats
        super.init(plate: plate)
    }
}

@Model final class Truck: Vehicle {
    var load: Double

    init(plate: String, load: Double) {
        self.load = load
        super.init(plate: plate)
    }
}

@Model final class Driver {
    var name: String
    var favourite: Vehicle?
    var vehicles: [Vehicle] = []

    init(name: String) { self.name = name }
}

@Model final class Garage {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Vehicle.garage) var vehicles: [Vehicle] = []

    init(name: String) { self.name = name }
}

let vehicleTypes: [any PersistentModel.Type] = [Vehicle.self, Car.self, Truck.self, Driver.self, Garage.self]
