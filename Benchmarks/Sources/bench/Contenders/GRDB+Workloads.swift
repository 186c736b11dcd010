import Foundation
import GRDB

/// A GRDB database queue on a file in WAL mode, with the tables of ``RawSchema``.
private func openQueue(_ directory: ScratchDirectory, schema: String) throws -> DatabaseQueue {
    let queue = try DatabaseQueue(path: directory.file("grdb.sqlite").path)
    try queue.writeWithoutTransaction { db in
        _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
        try db.execute(sql: schema)
    }
    return queue
}

final class GRDBUsers<User: GRDBUser>: SimpleSubject, LookupSubject {
    private let queue: DatabaseQueue
    private let unique: Bool
    private let janes = User.filter(Column("firstName") == "Jane").order(Column("age"))

    init(_ directory: ScratchDirectory, unique: Bool) throws {
        queue = try openQueue(directory, schema: RawSchema.user(unique: unique))
        self.unique = unique
    }

    func insert(_ users: [UserRow]) throws -> Int {
        try queue.write { db in
            for row in users {
                var user = User(row)
                if unique { try user.upsert(db) } else { try user.insert(db) }
            }
        }
        return users.count
    }

    func fetchJanes() throws -> Int {
        var checksum = UserChecksum()
        for user in try queue.read({ db in try janes.fetchAll(db) }) { checksum.add(firstName: user.firstName, age: user.age) }
        return checksum.value
    }

    func renameJanes() throws -> Int {
        try queue.write { db in
            let users = try janes.fetchAll(db)
            for var user in users { try user.updateChanges(db) { $0.firstName = UserRow.renamed } }
            return users.count
        }
    }

    func deleteAll() throws -> Int {
        try queue.write { db in _ = try User.deleteAll(db) }
        return try queue.read { db in try User.fetchCount(db) }
    }

    func load(_ users: [UserRow]) throws { _ = try insert(users) }

    func find(_ id: UUID) throws -> Int {
        try queue.read { db in try User.filter(Column("id") == id.uuidString).fetchOne(db)?.age ?? 0 }
    }

    func count(minimumAge: Int) throws -> Int {
        try queue.read { db in try User.filter(Column("age") >= minimumAge).fetchCount(db) }
    }
}

final class GRDBSchools<School: GRDBSchool, Student: GRDBStudent, Grade: GRDBGrade>: ComplexSubject {
    private let queue: DatabaseQueue

    init(_ directory: ScratchDirectory) throws {
        queue = try openQueue(directory, schema: RawSchema.school)
    }

    func insert(_ graph: SchoolGraph) throws -> Int {
        try queue.write { db in
            var schools: [Int64] = []
            for name in graph.schools {
                var school = School(name: name)
                try school.insert(db)
                schools.append(school.pk!)
            }
            for row in graph.students {
                var student = Student(name: row.name, school: schools[row.school])
                try student.insert(db)
                for grade in row.grades {
                    var record = Grade(subject: grade.subject, letter: grade.letter, student: student.pk!)
                    try record.insert(db)
                }
            }
        }
        return graph.students.count
    }

    func fetchTopPhysics() throws -> Int {
        try queue.read { db in
            try Student.fetchAll(db, sql: "SELECT DISTINCT s.* FROM grade g JOIN student s ON s.pk = g.student WHERE g.subject = ? AND g.letter = ?",
                                 arguments: [SchoolGraph.topSubject, SchoolGraph.topLetter]).count
        }
    }

    func resitFailures() throws -> Int {
        try queue.write { db in
            let grades = try Grade.filter(Column("letter") == SchoolGraph.failLetter).fetchAll(db)
            for var grade in grades { try grade.updateChanges(db) { $0.letter = SchoolGraph.resitLetter } }
            return grades.count
        }
    }

    func deleteAll() throws -> Int {
        try queue.write { db in
            _ = try Grade.deleteAll(db)
            _ = try Student.deleteAll(db)
            _ = try School.deleteAll(db)
        }
        return try queue.read { db in try School.fetchCount(db) + Student.fetchCount(db) + Grade.fetchCount(db) }
    }
}

final class GRDBOrders<Order: GRDBOrder>: OrdersSubject {
    private let queue: DatabaseQueue

    init(_ directory: ScratchDirectory) throws {
        queue = try openQueue(directory, schema: RawSchema.orders)
    }

    func load(_ orders: [OrderRow]) throws {
        try queue.write { db in
            for order in orders { try Order(order).insert(db) }
        }
    }

    func fetchAll() throws -> Int {
        try queue.read { db in try Order.fetchAll(db).reduce(0) { $0 &+ $1.checksum } }
    }
}
