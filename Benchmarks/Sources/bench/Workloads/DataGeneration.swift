import Foundation

/// SplitMix64: the same data in every process and every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uuid() -> UUID {
        let high = next(), low = next()
        return withUnsafeBytes(of: (high, low)) { bytes in
            UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
    }
}

/// A user of the simple and lookup workloads, as every contender receives it.
struct UserRow {
    var id: UUID
    var firstName: String
    var lastName: String
    var age: Int

    static let firstNames = ["Jane", "John", "Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi"]
    static let lastNames = ["Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Robinson", "Wright"]
    static let renamed = "Wendy"

    static func generate(_ count: Int, seed: UInt64 = 1) -> [UserRow] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            UserRow(id: random.uuid(), firstName: firstNames.randomElement(using: &random)!,
                    lastName: lastNames.randomElement(using: &random)!, age: Int.random(in: 18...90, using: &random))
        }
    }
}

/// What a fetch of users hands back, folded into one number that must match across contenders.
struct UserChecksum {
    private(set) var value = 0

    mutating func add(firstName: String, age: Int) {
        value &+= 1 << 20 &+ age &+ firstName.utf8.count
    }

    /// The checksum of rows a raw contender read.
    static func of(_ users: some Sequence<UserRow>) -> Int {
        var checksum = UserChecksum()
        for user in users { checksum.add(firstName: user.firstName, age: user.age) }
        return checksum.value
    }
}

/// The complex workload's graph: one school per 100 students, five grades per student.
struct SchoolGraph {
    struct StudentRow {
        var name: String
        var school: Int
        var grades: [(subject: String, letter: String)]
    }

    static let subjects = ["Maths", "Physics", "Chemistry", "Biology", "English"]
    static let letters = ["A*", "A", "B", "C", "D", "E", "F"]
    static let topSubject = "Physics", topLetter = "A*", failLetter = "F", resitLetter = "E"

    var schools: [String]
    var students: [StudentRow]

    static func generate(students count: Int, seed: UInt64 = 2) -> SchoolGraph {
        var random = SeededGenerator(seed: seed)
        let schools = (0..<max(1, count / 100)).map { "School \($0)" }
        let students = (0..<count).map { index in
            StudentRow(name: "Student \(index)", school: index % schools.count,
                       grades: subjects.map { ($0, letters.randomElement(using: &random)!) })
        }
        return SchoolGraph(schools: schools, students: students)
    }
}

/// A row of Lighter's Northwind "Orders" table: 14 columns, three of them nullable.
struct OrderRow {
    var orderID: Int
    var customerID: String
    var employeeID: Int
    var orderDate: String
    var requiredDate: String
    var shippedDate: String?
    var shipVia: Int
    var freight: Double
    var shipName: String
    var shipAddress: String
    var shipCity: String
    var shipRegion: String?
    var shipPostalCode: String?
    var shipCountry: String

    static func generate(_ count: Int, seed: UInt64 = 3) -> [OrderRow] {
        var random = SeededGenerator(seed: seed)
        let countries = ["Germany", "France", "UK", "USA", "Brazil", "Mexico", "Spain", "Sweden", "Italy", "Canada"]
        let cities = ["Berlin", "Lyon", "London", "Seattle", "Rio de Janeiro", "México D.F.", "Madrid", "Luleå", "Torino", "Montréal"]
        return (0..<count).map { index in
            let place = Int.random(in: 0..<countries.count, using: &random)
            let day = Int.random(in: 1...28, using: &random), month = Int.random(in: 1...12, using: &random)
            let shipped = Bool.random(using: &random)
            return OrderRow(
                orderID: 10_248 + index,
                customerID: String((0..<5).map { _ in "ABCDEFGHIJKLMNOPQRSTUVWXYZ".randomElement(using: &random)! }),
                employeeID: Int.random(in: 1...9, using: &random),
                orderDate: "2016-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day) 00:00:00.000",
                requiredDate: "2016-\(month < 10 ? "0" : "")\(month)-28 00:00:00.000",
                shippedDate: shipped ? "2016-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day) 12:00:00.000" : nil,
                shipVia: Int.random(in: 1...3, using: &random),
                freight: Double(Int.random(in: 0...100_000, using: &random)) / 100,
                shipName: "Ship \(Int.random(in: 0...999, using: &random))",
                shipAddress: "\(Int.random(in: 1...300, using: &random)) Main Street",
                shipCity: cities[place],
                shipRegion: place % 3 == 0 ? "Region \(place)" : nil,
                shipPostalCode: place % 5 == 0 ? nil : String(Int.random(in: 10_000...99_999, using: &random)),
                shipCountry: countries[place])
        }
    }
}

/// Folds a fetched order into a number that must match across contenders.
func orderChecksum(orderID: Int, freight: Double, shipName: String, shippedDate: String?) -> Int {
    orderID &+ Int(freight * 100) &+ shipName.utf8.count &+ (shippedDate == nil ? 0 : 7)
}
