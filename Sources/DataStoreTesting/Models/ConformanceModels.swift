import Foundation
import OpenSwiftData

/// A kind with a raw value, stored by it.
enum ConformanceStatus: String, Codable, Sendable, CaseIterable {
    case planned, active, done
}

/// The model the kit's checks store and query: one property per attribute kind, optional and not,
/// filled with edge values (see ``ConformanceFixtures``). The names are prefixed so they do not
/// collide with the entities of the store's own tests in the same process.
@Model
final class ConformanceItem {
    var name: String
    var notes: String?
    var count: Int
    var rating: Int?
    var small: Int16
    var big: UInt32
    var price: Double
    var discount: Double?
    var weight: Float
    var isActive: Bool
    var flag: Bool?
    var date: Date
    var dueDate: Date?
    var uuid: UUID
    var token: UUID?
    var payload: Data
    var tags: [String]
    var status: ConformanceStatus
    var owner: ConformanceOwner?

    init(name: String, notes: String? = nil, count: Int = 0, rating: Int? = nil, small: Int16 = 0, big: UInt32 = 0,
         price: Double = 0, discount: Double? = nil, weight: Float = 0, isActive: Bool = false, flag: Bool? = nil,
         date: Date = Date(timeIntervalSinceReferenceDate: 0), dueDate: Date? = nil, uuid: UUID = UUID(), token: UUID? = nil,
         payload: Data = Data(), tags: [String] = [], status: ConformanceStatus = .planned, owner: ConformanceOwner? = nil) {
        self.name = name
        self.notes = notes
        self.count = count
        self.rating = rating
        self.small = small
        self.big = big
        self.price = price
        self.discount = discount
        self.weight = weight
        self.isActive = isActive
        self.flag = flag
        self.date = date
        self.dueDate = dueDate
        self.uuid = uuid
        self.token = token
        self.payload = payload
        self.tags = tags
        self.status = status
        self.owner = owner
    }
}

/// The to-many end of the kit's graph (and the to-one target of ``ConformanceItem/owner``). The
/// two relationships are independent (no inverse): inverse maintenance is not part of the kit.
@Model
final class ConformanceOwner {
    var name: String
    var pets: [ConformancePet]

    init(name: String, pets: [ConformancePet] = []) {
        self.name = name
        self.pets = pets
    }
}

@Model
final class ConformancePet {
    var name: String
    var friend: ConformancePet?

    init(name: String, friend: ConformancePet? = nil) {
        self.name = name
        self.friend = friend
    }
}

/// Unique on `code`: an insert with a stored code updates that model.
@Model
final class ConformanceCode {
    @Attribute(.unique) var code: String
    var value: Int

    init(code: String, value: Int) {
        self.code = code
        self.value = value
    }
}
