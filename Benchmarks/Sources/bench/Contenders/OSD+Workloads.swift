import Foundation
import DataStoreTesting
import JSONStore
import OpenSwiftData

/// Which OpenSwiftData store a contender runs on.
enum OSDStore {
    /// The default store: an SQLite file in the run's directory.
    case sqlite
    case inMemory
    /// The sample store of `DataStoreTesting`: a custom store adopting `DataStoreRowAccess`.
    case sampleRows
    /// A JSONStore file in the run's directory, written compact (its faster format).
    case json

    /// `OSD_SQLITE_HISTORY=off` runs the SQLite store without history, to compare its figures with
    /// those of a build from before the store kept history (`compare-builds.py`).
    static let sqliteKeepsHistory = ProcessInfo.processInfo.environment["OSD_SQLITE_HISTORY"] != "off"

    func container(for types: [any PersistentModel.Type], in directory: ScratchDirectory) throws -> ModelContainer {
        let schema = Schema(types)
        switch self {
        case .sqlite:
            var configuration = ModelConfiguration(url: directory.file("osd.store"))
            configuration.keepsHistory = Self.sqliteKeepsHistory
            return try ModelContainer(for: schema, configurations: [configuration])
        case .inMemory:
            return try ModelContainer(for: schema, configurations: [InMemoryStoreConfiguration()])
        case .sampleRows:
            return try ModelContainer(for: schema, configurations: [SampleRowStoreConfiguration(name: "bench", schema: schema)])
        case .json:
            let configuration = JSONStoreConfiguration(name: "bench", schema: schema, url: directory.file("osd.json"), outputFormatting: .compact)
            return try ModelContainer(for: schema, configurations: [configuration])
        }
    }
}

/// One context per run, used by every phase, as an app would.
final class OSDUsers: SimpleSubject, LookupSubject {
    private let container: ModelContainer
    private let context: ModelContext
    private let unique: Bool

    convenience init(_ store: OSDStore, _ directory: ScratchDirectory, unique: Bool) throws {
        self.init(try store.container(for: [Self.model(unique: unique)], in: directory), unique: unique)
    }

    /// On a container opened elsewhere (PostgresStore's) whose schema holds ``model(unique:)``.
    init(_ container: ModelContainer, unique: Bool) {
        self.container = container
        context = ModelContext(container)
        self.unique = unique
    }

    static func model(unique: Bool) -> any PersistentModel.Type { unique ? UniqueUser.self : User.self }

    func insert(_ users: [UserRow]) throws -> Int {
        if unique {
            for row in users { context.insert(UniqueUser(row)) }
        } else {
            for row in users { context.insert(User(row)) }
        }
        try context.save()
        return users.count
    }

    func fetchJanes() throws -> Int {
        var checksum = UserChecksum()
        if unique {
            for user in try context.fetch(FetchDescriptor<UniqueUser>(predicate: #Predicate { $0.firstName == "Jane" }, sortBy: [SortDescriptor(\.age)])) {
                checksum.add(firstName: user.firstName, age: user.age)
            }
        } else {
            for user in try context.fetch(FetchDescriptor<User>(predicate: #Predicate { $0.firstName == "Jane" }, sortBy: [SortDescriptor(\.age)])) {
                checksum.add(firstName: user.firstName, age: user.age)
            }
        }
        return checksum.value
    }

    func renameJanes() throws -> Int {
        let count: Int
        if unique {
            let users = try context.fetch(FetchDescriptor<UniqueUser>(predicate: #Predicate { $0.firstName == "Jane" }))
            for user in users { user.firstName = UserRow.renamed }
            count = users.count
        } else {
            let users = try context.fetch(FetchDescriptor<User>(predicate: #Predicate { $0.firstName == "Jane" }))
            for user in users { user.firstName = UserRow.renamed }
            count = users.count
        }
        try context.save()
        return count
    }

    func deleteAll() throws -> Int {
        if unique {
            try context.delete(model: UniqueUser.self)
            try context.save()
            return try context.fetchCount(FetchDescriptor<UniqueUser>())
        }
        try context.delete(model: User.self)
        try context.save()
        return try context.fetchCount(FetchDescriptor<User>())
    }

    func load(_ users: [UserRow]) throws { _ = try insert(users) }

    func find(_ id: UUID) throws -> Int {
        var descriptor = FetchDescriptor<UniqueUser>(predicate: #Predicate { $0.id == id })
        descriptor.fetchLimit = 1
        return try context.fetch(descriptor).first?.age ?? 0
    }

    func count(minimumAge: Int) throws -> Int {
        try context.fetchCount(FetchDescriptor<UniqueUser>(predicate: #Predicate { $0.age >= minimumAge }))
    }
}

final class OSDSchools: ComplexSubject {
    private let container: ModelContainer
    private let context: ModelContext

    init(_ store: OSDStore, _ directory: ScratchDirectory) throws {
        container = try store.container(for: [School.self, Student.self, Grade.self], in: directory)
        context = ModelContext(container)
    }

    func insert(_ graph: SchoolGraph) throws -> Int {
        let schools = graph.schools.map { School(name: $0) }
        for school in schools { context.insert(school) }
        for row in graph.students {
            let student = Student(name: row.name, school: schools[row.school])
            context.insert(student)
            for grade in row.grades { context.insert(Grade(subject: grade.subject, letter: grade.letter, student: student)) }
        }
        try context.save()
        return graph.students.count
    }

    func fetchTopPhysics() throws -> Int {
        let subject = SchoolGraph.topSubject, letter = SchoolGraph.topLetter
        let students = try context.fetch(FetchDescriptor<Student>(predicate: #Predicate { student in
            student.grades.contains { $0.subject == subject && $0.letter == letter }
        }))
        return students.reduce(0) { count, student in count + (student.name.isEmpty ? 0 : 1) }
    }

    func resitFailures() throws -> Int {
        let fail = SchoolGraph.failLetter
        let grades = try context.fetch(FetchDescriptor<Grade>(predicate: #Predicate { $0.letter == fail }))
        for grade in grades { grade.letter = SchoolGraph.resitLetter }
        try context.save()
        return grades.count
    }

    func deleteAll() throws -> Int {
        try context.delete(model: Grade.self)
        try context.delete(model: Student.self)
        try context.delete(model: School.self)
        try context.save()
        return try context.fetchCount(FetchDescriptor<School>()) + context.fetchCount(FetchDescriptor<Student>())
            + context.fetchCount(FetchDescriptor<Grade>())
    }
}

/// Each fetch runs in a fresh context, so every order becomes a new object, as with the other
/// contenders' structs.
final class OSDOrders: OrdersSubject {
    private let container: ModelContainer

    init(_ store: OSDStore, _ directory: ScratchDirectory) throws {
        container = try store.container(for: [Order.self], in: directory)
    }

    func load(_ orders: [OrderRow]) throws {
        let context = ModelContext(container)
        for order in orders { context.insert(Order(order)) }
        try context.save()
    }

    func fetchAll() throws -> Int {
        let context = ModelContext(container)
        return try context.fetch(FetchDescriptor<Order>()).reduce(0) {
            $0 &+ orderChecksum(orderID: $1.orderID, freight: $1.freight, shipName: $1.shipName, shippedDate: $1.shippedDate)
        }
    }
}
