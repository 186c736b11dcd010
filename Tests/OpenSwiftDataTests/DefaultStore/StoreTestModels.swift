import Foundation
import OpenSwiftData

// Models of the SQLite store's tests. Entity names are global in a process, so they are
// prefixed to stay apart from the other suites' models.

@Model final class StoreTrip {
    var name: String
    var nights: Int
    var budget: Double
    var startDate: Date
    var notes: String?
    var traveller: StoreTraveller?
    var visits: [StoreVisit] = []

    init(name: String, nights: Int = 1, budget: Double = 0, startDate: Date = Date(timeIntervalSinceReferenceDate: 0), notes: String? = nil) {
        self.name = name
        self.nights = nights
        self.budget = budget
        self.startDate = startDate
        self.notes = notes
    }
}

@Model final class StoreVisit {
    var place: String

    init(place: String) {
        self.place = place
    }
}

@Model final class StoreTraveller {
    @Attribute(.unique) var email: String
    var name: String

    init(email: String, name: String) {
        self.email = email
        self.name = name
    }
}

@Model final class StoreBooking {
    #Unique<StoreBooking>([\.hotel, \.night])
    #Index<StoreBooking>([\.guest], [\.hotel, \.guest])
    var hotel: String
    var night: Int
    var guest: String

    init(hotel: String, night: Int, guest: String) {
        self.hotel = hotel
        self.night = night
        self.guest = guest
    }
}

/// Two uniqueness constraints: an insert may equal a row on either.
@Model final class StoreMember {
    #Unique<StoreMember>([\.email], [\.handle])
    var email: String
    var handle: String
    var name: String

    init(email: String, handle: String, name: String) {
        self.email = email
        self.handle = handle
        self.name = name
    }
}

enum StoreMood: String, Codable, Sendable { case calm, busy }
enum StoreLevel: Int, Codable, Sendable { case low = 1, high = 9 }

struct StoreSpot: Codable, Hashable, Sendable {
    var label: String
    var altitude: Double
}

/// Every kind of value the store writes.
@Model final class StoreValues {
    var flag: Bool
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint8: UInt8
    var uint: UInt
    var uint64: UInt64
    var double: Double
    var float: Float
    var text: String
    var date: Date
    var uuid: UUID
    var url: URL
    var data: Data
    var mood: StoreMood
    var level: StoreLevel
    var spot: StoreSpot
    var tags: [String]
    var scores: Set<Int>
    var table: [String: Double]
    var maybeText: String?
    var maybeInt: Int?
    var maybeDate: Date?
    var maybeMood: StoreMood?
    var maybeSpot: StoreSpot?

    init(flag: Bool = true, int: Int = 1, int8: Int8 = 2, int16: Int16 = 3, int32: Int32 = 4, int64: Int64 = 5, uint8: UInt8 = 6,
         uint: UInt = 7, uint64: UInt64 = 8, double: Double = 0.5, float: Float = 0.25, text: String = "text",
         date: Date = Date(timeIntervalSinceReferenceDate: 1), uuid: UUID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
         url: URL = URL(string: "https://example.com/a?b=c")!, data: Data = Data([1, 2, 3]), mood: StoreMood = .calm,
         level: StoreLevel = .high, spot: StoreSpot = StoreSpot(label: "peak", altitude: 4808.7), tags: [String] = ["a", "b"],
         scores: Set<Int> = [3], table: [String: Double] = ["x": 1.5], maybeText: String? = nil, maybeInt: Int? = nil,
         maybeDate: Date? = nil, maybeMood: StoreMood? = nil, maybeSpot: StoreSpot? = nil) {
        self.flag = flag
        self.int = int
        self.int8 = int8
        self.int16 = int16
        self.int32 = int32
        self.int64 = int64
        self.uint8 = uint8
        self.uint = uint
        self.uint64 = uint64
        self.double = double
        self.float = float
        self.text = text
        self.date = date
        self.uuid = uuid
        self.url = url
        self.data = data
        self.mood = mood
        self.level = level
        self.spot = spot
        self.tags = tags
        self.scores = scores
        self.table = table
        self.maybeText = maybeText
        self.maybeInt = maybeInt
        self.maybeDate = maybeDate
        self.maybeMood = maybeMood
        self.maybeSpot = maybeSpot
    }
}

/// A scratch directory per test, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("osd-sqlite-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
