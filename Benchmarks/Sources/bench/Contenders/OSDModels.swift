import Foundation
import OpenSwiftData

// The same models as the other contenders' tables, written as a SwiftData user would.

@Model final class User {
    var id: UUID
    var firstName: String
    var lastName: String
    var age: Int

    init(_ row: UserRow) {
        id = row.id
        firstName = row.firstName
        lastName = row.lastName
        age = row.age
    }
}

@Model final class UniqueUser {
    #Unique<UniqueUser>([\.id])
    var id: UUID
    var firstName: String
    var lastName: String
    var age: Int

    init(_ row: UserRow) {
        id = row.id
        firstName = row.firstName
        lastName = row.lastName
        age = row.age
    }
}

@Model final class School {
    var name: String
    @Relationship(deleteRule: .nullify, inverse: \Student.school) var students: [Student] = []

    init(name: String) { self.name = name }
}

@Model final class Student {
    var name: String
    var school: School?
    @Relationship(deleteRule: .cascade, inverse: \Grade.student) var grades: [Grade] = []

    init(name: String, school: School) {
        self.name = name
        self.school = school
    }
}

@Model final class Grade {
    var subject: String
    var letter: String
    var student: Student?

    init(subject: String, letter: String, student: Student) {
        self.subject = subject
        self.letter = letter
        self.student = student
    }
}

@Model final class Order {
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
}
