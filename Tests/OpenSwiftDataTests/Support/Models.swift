import Foundation
import OpenSwiftData

@Model final class Trip {
    #Unique<Trip>([\.name, \.startDate])
    var name: String
    @Attribute(originalName: "dest") var destination: String
    var startDate: Date
    var budget: Double = 0
    var notes: String?
    @Transient var isSelected = false

    init(name: String, destination: String, startDate: Date, budget: Double = 0, notes: String? = nil) {
        self.name = name
        self.destination = destination
        self.startDate = startDate
        self.budget = budget
        self.notes = notes
    }
}

/// A model that declares its own `id`, non-final, as in the Qiita seed.
@Model class Item {
    #Unique<Item>([\.id])
    var id: UUID
    var timestamp: Date

    init(timestamp: Date) {
        id = UUID()
        self.timestamp = timestamp
    }
}

enum Priority: String, Codable, Sendable { case low, high }

struct Coordinates: Codable, Hashable, Sendable {
    var latitude: Double
    var longitude: Double
}

/// Every value kind a snapshot must carry.
@Model final class Sample {
    var text: String
    var count: Int
    var ratio: Double
    var flag: Bool
    var when: Date
    var uuid: UUID
    var link: URL
    var blob: Data
    var priority: Priority
    var place: Coordinates
    var tags: [String]
    var maybe: String?

    init(text: String = "a", count: Int = 1, ratio: Double = 0.5, flag: Bool = true,
         when: Date = Date(timeIntervalSince1970: 1_700_000_000), uuid: UUID = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
         link: URL = URL(string: "https://example.com/a")!, blob: Data = Data([1, 2, 3]), priority: Priority = .high,
         place: Coordinates = Coordinates(latitude: 48.85, longitude: 2.35), tags: [String] = ["x", "y"], maybe: String? = nil) {
        self.text = text
        self.count = count
        self.ratio = ratio
        self.flag = flag
        self.when = when
        self.uuid = uuid
        self.link = link
        self.blob = blob
        self.priority = priority
        self.place = place
        self.tags = tags
        self.maybe = maybe
    }
}
