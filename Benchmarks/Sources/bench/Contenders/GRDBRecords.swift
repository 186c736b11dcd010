import Foundation
import GRDB

// Two record flavours over the same tables (see RawSchema): hand-written row decoding and
// encoding by column index, and Codable (GRDB derives both). UUIDs are upper-case text, as in the
// other contenders.

protocol GRDBUser: FetchableRecord, MutablePersistableRecord {
    init(_ user: UserRow)
    var firstName: String { get set }
    var age: Int { get set }
}

protocol GRDBSchool: FetchableRecord, MutablePersistableRecord {
    init(name: String)
    var pk: Int64? { get }
}

protocol GRDBStudent: FetchableRecord, MutablePersistableRecord {
    init(name: String, school: Int64)
    var pk: Int64? { get }
}

protocol GRDBGrade: FetchableRecord, MutablePersistableRecord {
    init(subject: String, letter: String, student: Int64)
    var letter: String { get set }
}

protocol GRDBOrder: FetchableRecord, PersistableRecord {
    init(_ order: OrderRow)
    var checksum: Int { get }
}

// MARK: Hand-written

struct UserRecord: GRDBUser {
    static let databaseTableName = "user"
    var pk: Int64?
    var id: UUID
    var firstName: String
    var lastName: String
    var age: Int

    init(_ user: UserRow) {
        id = user.id
        firstName = user.firstName
        lastName = user.lastName
        age = user.age
    }

    init(row: Row) {
        pk = row[0]
        id = UUID(uuidString: row[1])!
        firstName = row[2]
        lastName = row[3]
        age = row[4]
    }

    func encode(to container: inout PersistenceContainer) {
        container["pk"] = pk
        container["id"] = id.uuidString
        container["firstName"] = firstName
        container["lastName"] = lastName
        container["age"] = age
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { pk = inserted.rowID }
}

struct SchoolRecord: GRDBSchool {
    static let databaseTableName = "school"
    var pk: Int64?
    var name: String

    init(name: String) { self.name = name }

    init(row: Row) {
        pk = row[0]
        name = row[1]
    }

    func encode(to container: inout PersistenceContainer) {
        container["pk"] = pk
        container["name"] = name
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { pk = inserted.rowID }
}

struct StudentRecord: GRDBStudent {
    static let databaseTableName = "student"
    var pk: Int64?
    var name: String
    var school: Int64

    init(name: String, school: Int64) {
        self.name = name
        self.school = school
    }

    init(row: Row) {
        pk = row[0]
        name = row[1]
        school = row[2]
    }

    func encode(to container: inout PersistenceContainer) {
        container["pk"] = pk
        container["name"] = name
        container["school"] = school
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { pk = inserted.rowID }
}

struct GradeRecord: GRDBGrade {
    static let databaseTableName = "grade"
    var pk: Int64?
    var subject: String
    var letter: String
    var student: Int64

    init(subject: String, letter: String, student: Int64) {
        self.subject = subject
        self.letter = letter
        self.student = student
    }

    init(row: Row) {
        pk = row[0]
        subject = row[1]
        letter = row[2]
        student = row[3]
    }

    func encode(to container: inout PersistenceContainer) {
        container["pk"] = pk
        container["subject"] = subject
        container["letter"] = letter
        container["student"] = student
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { pk = inserted.rowID }
}

struct OrderRecord: GRDBOrder {
    static let databaseTableName = "orders"
    var order: OrderRow

    init(_ order: OrderRow) { self.order = order }

    /// Columns by index after the key (`SELECT *`).
    init(row: Row) {
        order = OrderRow(
            orderID: row[1], customerID: row[2], employeeID: row[3], orderDate: row[4], requiredDate: row[5],
            shippedDate: row[6], shipVia: row[7], freight: row[8], shipName: row[9], shipAddress: row[10],
            shipCity: row[11], shipRegion: row[12], shipPostalCode: row[13], shipCountry: row[14])
    }

    func encode(to container: inout PersistenceContainer) {
        container["orderID"] = order.orderID
        container["customerID"] = order.customerID
        container["employeeID"] = order.employeeID
        container["orderDate"] = order.orderDate
        container["requiredDate"] = order.requiredDate
        container["shippedDate"] = order.shippedDate
        container["shipVia"] = order.shipVia
        container["freight"] = order.freight
        container["shipName"] = order.shipName
        container["shipAddress"] = order.shipAddress
        container["shipCity"] = order.shipCity
        container["shipRegion"] = order.shipRegion
        container["shipPostalCode"] = order.shipPostalCode
        container["shipCountry"] = order.shipCountry
    }

    var checksum: Int {
        orderChecksum(orderID: order.orderID, freight: order.freight, shipName: order.shipName, shippedDate: order.shippedDate)
    }
}

// MARK: Codable

struct UserCodable: GRDBUser, Codable {
    static let databaseTableName = "user"
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
    var pk: Int64?
    var id: UUID
    var firstName: String
    var lastName: String
    var age: Int

    init(_ user: UserRow) {
        id = user.id
        firstName = user.firstName
        lastName = user.lastName
        age = user.age
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { pk = inserted.rowID }
}

struct SchoolCodable: GRDBSchool, Codable {
    static let databaseTableName = "school"
    var pk: Int64?
    var name: String

    init(name: String) { self.name = name }

    mutating func didInsert(_ inserted: InsertionSuccess) { pk = inserted.rowID }
}

struct StudentCodable: GRDBStudent, Codable {
    static let databaseTableName = "student"
    var pk: Int64?
    var name: String
    var school: Int64

    init(name: String, school: Int64) {
        self.name = name
        self.school = school
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { pk = inserted.rowID }
}

struct GradeCodable: GRDBGrade, Codable {
    static let databaseTableName = "grade"
    var pk: Int64?
    var subject: String
    var letter: String
    var student: Int64

    init(subject: String, letter: String, student: Int64) {
        self.subject = subject
        self.letter = letter
        self.student = student
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { pk = inserted.rowID }
}

struct OrderCodable: GRDBOrder, Codable {
    static let databaseTableName = "orders"
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

    init(_ order: OrderRow) {
        orderID = order.orderID
        customerID = order.customerID
        employeeID = order.employeeID
        orderDate = order.orderDate
        requiredDate = order.requiredDate
        shippedDate = order.shippedDate
        shipVia = order.shipVia
        freight = order.freight
        shipName = order.shipName
        shipAddress = order.shipAddress
        shipCity = order.shipCity
        shipRegion = order.shipRegion
        shipPostalCode = order.shipPostalCode
        shipCountry = order.shipCountry
    }

    var checksum: Int { orderChecksum(orderID: orderID, freight: freight, shipName: shipName, shippedDate: shippedDate) }
}
