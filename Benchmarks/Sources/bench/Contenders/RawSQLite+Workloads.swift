import Foundation

/// Tables shaped like the default store's: an AUTOINCREMENT integer key plus one column per
/// property, UUIDs as upper-case text, so every contender reads and writes the same rows.
enum RawSchema {
    static func user(unique: Bool) -> String {
        "CREATE TABLE user (pk INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL, firstName TEXT NOT NULL, lastName TEXT NOT NULL, age INTEGER NOT NULL);"
            + (unique ? "CREATE UNIQUE INDEX user_id ON user(id);" : "")
    }

    static let school = """
        CREATE TABLE school (pk INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL);
        CREATE TABLE student (pk INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, school INTEGER REFERENCES school(pk));
        CREATE TABLE grade (pk INTEGER PRIMARY KEY AUTOINCREMENT, subject TEXT NOT NULL, letter TEXT NOT NULL, student INTEGER REFERENCES student(pk));
        """

    static let orders = """
        CREATE TABLE orders (pk INTEGER PRIMARY KEY AUTOINCREMENT, orderID INTEGER NOT NULL, customerID TEXT NOT NULL,
          employeeID INTEGER NOT NULL, orderDate TEXT NOT NULL, requiredDate TEXT NOT NULL, shippedDate TEXT, shipVia INTEGER NOT NULL,
          freight REAL NOT NULL, shipName TEXT NOT NULL, shipAddress TEXT NOT NULL, shipCity TEXT NOT NULL, shipRegion TEXT,
          shipPostalCode TEXT, shipCountry TEXT NOT NULL)
        """
    static let orderColumns = "orderID, customerID, employeeID, orderDate, requiredDate, shippedDate, shipVia, freight, shipName, shipAddress, shipCity, shipRegion, shipPostalCode, shipCountry"
}

/// A user as the raw contender holds it after a fetch.
private struct RawUser {
    var pk: Int
    var row: UserRow
}

private extension RawStatement {
    func user() -> RawUser {
        RawUser(pk: int(0), row: UserRow(id: UUID(uuidString: text(1))!, firstName: text(2), lastName: text(3), age: int(4)))
    }

    func bind(_ user: UserRow) {
        bind(1, user.id.uuidString)
        bind(2, user.firstName)
        bind(3, user.lastName)
        bind(4, user.age)
    }
}

final class RawUsers: SimpleSubject, LookupSubject {
    private let db: RawConnection
    private let insertStatement, janes, rename, deleteStatement, count, byID, countByAge: RawStatement

    init(_ directory: ScratchDirectory, unique: Bool) throws {
        db = try RawConnection(path: directory.file("raw.sqlite").path)
        try db.execute(RawSchema.user(unique: unique))
        let insert = "INSERT INTO user (id, firstName, lastName, age) VALUES (?, ?, ?, ?)"
        insertStatement = try db.prepare(unique ? insert + " ON CONFLICT(id) DO UPDATE SET firstName = excluded.firstName, lastName = excluded.lastName, age = excluded.age" : insert)
        janes = try db.prepare("SELECT pk, id, firstName, lastName, age FROM user WHERE firstName = ? ORDER BY age")
        rename = try db.prepare("UPDATE user SET firstName = ? WHERE pk = ?")
        deleteStatement = try db.prepare("DELETE FROM user")
        count = try db.prepare("SELECT COUNT(*) FROM user")
        byID = try db.prepare("SELECT pk, id, firstName, lastName, age FROM user WHERE id = ?")
        countByAge = try db.prepare("SELECT COUNT(*) FROM user WHERE age >= ?")
    }

    func insert(_ users: [UserRow]) throws -> Int {
        try db.transaction {
            for user in users {
                insertStatement.bind(user)
                try insertStatement.run()
            }
        }
        return users.count
    }

    private func fetchJaneRows() throws -> [RawUser] {
        janes.bind(1, "Jane")
        defer { janes.reset() }
        var users: [RawUser] = []
        while try janes.step() { users.append(janes.user()) }
        return users
    }

    func fetchJanes() throws -> Int {
        UserChecksum.of(try fetchJaneRows().lazy.map(\.row))
    }

    func renameJanes() throws -> Int {
        try db.transaction {
            let users = try fetchJaneRows()
            for user in users {
                rename.bind(1, UserRow.renamed)
                rename.bind(2, user.pk)
                try rename.run()
            }
            return users.count
        }
    }

    func deleteAll() throws -> Int {
        try db.transaction { try deleteStatement.run() }
        return try scalar(count)
    }

    func load(_ users: [UserRow]) throws { _ = try insert(users) }

    func find(_ id: UUID) throws -> Int {
        byID.bind(1, id.uuidString)
        defer { byID.reset() }
        guard try byID.step() else { return 0 }
        return byID.user().row.age
    }

    func count(minimumAge: Int) throws -> Int {
        countByAge.bind(1, minimumAge)
        return try scalar(countByAge)
    }

    private func scalar(_ statement: RawStatement) throws -> Int {
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int(0)
    }
}

final class RawSchools: ComplexSubject {
    private struct Student {
        var pk: Int
        var name: String
        var school: Int
    }

    private struct Grade {
        var pk: Int
        var subject: String
        var letter: String
        var student: Int
    }

    private let db: RawConnection
    private let insertSchool, insertStudent, insertGrade, top, failing, resit, count: RawStatement

    init(_ directory: ScratchDirectory) throws {
        db = try RawConnection(path: directory.file("raw.sqlite").path)
        try db.execute(RawSchema.school)
        insertSchool = try db.prepare("INSERT INTO school (name) VALUES (?)")
        insertStudent = try db.prepare("INSERT INTO student (name, school) VALUES (?, ?)")
        insertGrade = try db.prepare("INSERT INTO grade (subject, letter, student) VALUES (?, ?, ?)")
        top = try db.prepare("SELECT DISTINCT s.pk, s.name, s.school FROM grade g JOIN student s ON s.pk = g.student WHERE g.subject = ? AND g.letter = ?")
        failing = try db.prepare("SELECT pk, subject, letter, student FROM grade WHERE letter = ?")
        resit = try db.prepare("UPDATE grade SET letter = ? WHERE pk = ?")
        count = try db.prepare("SELECT (SELECT COUNT(*) FROM school) + (SELECT COUNT(*) FROM student) + (SELECT COUNT(*) FROM grade)")
    }

    func insert(_ graph: SchoolGraph) throws -> Int {
        try db.transaction {
            var schools: [Int] = []
            for name in graph.schools {
                insertSchool.bind(1, name)
                try insertSchool.run()
                schools.append(db.lastInsertedRowID)
            }
            for student in graph.students {
                insertStudent.bind(1, student.name)
                insertStudent.bind(2, schools[student.school])
                try insertStudent.run()
                let key = db.lastInsertedRowID
                for grade in student.grades {
                    insertGrade.bind(1, grade.subject)
                    insertGrade.bind(2, grade.letter)
                    insertGrade.bind(3, key)
                    try insertGrade.run()
                }
            }
        }
        return graph.students.count
    }

    func fetchTopPhysics() throws -> Int {
        top.bind(1, SchoolGraph.topSubject)
        top.bind(2, SchoolGraph.topLetter)
        defer { top.reset() }
        var students: [Student] = []
        while try top.step() { students.append(Student(pk: top.int(0), name: top.text(1), school: top.int(2))) }
        return students.count
    }

    func resitFailures() throws -> Int {
        try db.transaction {
            failing.bind(1, SchoolGraph.failLetter)
            var grades: [Grade] = []
            while try failing.step() {
                grades.append(Grade(pk: failing.int(0), subject: failing.text(1), letter: failing.text(2), student: failing.int(3)))
            }
            failing.reset()
            for grade in grades {
                resit.bind(1, SchoolGraph.resitLetter)
                resit.bind(2, grade.pk)
                try resit.run()
            }
            return grades.count
        }
    }

    func deleteAll() throws -> Int {
        try db.transaction { try db.execute("DELETE FROM grade; DELETE FROM student; DELETE FROM school") }
        defer { count.reset() }
        _ = try count.step()
        return count.int(0)
    }
}

final class RawOrders: OrdersSubject {
    private let db: RawConnection
    private let all: RawStatement

    init(_ directory: ScratchDirectory) throws {
        db = try RawConnection(path: directory.file("raw.sqlite").path)
        try db.execute(RawSchema.orders)
        all = try db.prepare("SELECT \(RawSchema.orderColumns) FROM orders")
    }

    func load(_ orders: [OrderRow]) throws {
        let insert = try db.prepare("INSERT INTO orders (\(RawSchema.orderColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
        try db.transaction {
            for order in orders {
                insert.bind(1, order.orderID)
                insert.bind(2, order.customerID)
                insert.bind(3, order.employeeID)
                insert.bind(4, order.orderDate)
                insert.bind(5, order.requiredDate)
                insert.bind(6, order.shippedDate)
                insert.bind(7, order.shipVia)
                insert.bind(8, order.freight)
                insert.bind(9, order.shipName)
                insert.bind(10, order.shipAddress)
                insert.bind(11, order.shipCity)
                insert.bind(12, order.shipRegion)
                insert.bind(13, order.shipPostalCode)
                insert.bind(14, order.shipCountry)
                try insert.run()
            }
        }
    }

    func fetchAll() throws -> Int {
        defer { all.reset() }
        var orders: [OrderRow] = []
        while try all.step() {
            orders.append(OrderRow(
                orderID: all.int(0), customerID: all.text(1), employeeID: all.int(2), orderDate: all.text(3),
                requiredDate: all.text(4), shippedDate: all.optionalText(5), shipVia: all.int(6), freight: all.double(7),
                shipName: all.text(8), shipAddress: all.text(9), shipCity: all.text(10), shipRegion: all.optionalText(11),
                shipPostalCode: all.optionalText(12), shipCountry: all.text(13)))
        }
        return orders.reduce(0) { $0 &+ orderChecksum(orderID: $1.orderID, freight: $1.freight, shipName: $1.shipName, shippedDate: $1.shippedDate) }
    }
}
