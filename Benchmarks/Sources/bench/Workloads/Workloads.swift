import Foundation

/// The phases of the simple workload, as each contender implements them. Every method returns a
/// check value; the report flags a contender whose values differ from raw SQLite's.
protocol SimpleSubject {
    func insert(_ users: [UserRow]) throws -> Int
    /// The users named "Jane", sorted by age, into objects; their checksum.
    func fetchJanes() throws -> Int
    /// Fetches every Jane and renames her; how many were renamed.
    func renameJanes() throws -> Int
    /// Deletes every user; how many remain.
    func deleteAll() throws -> Int
}

protocol ComplexSubject {
    func insert(_ graph: SchoolGraph) throws -> Int
    /// The students with an A* in Physics, into objects; how many.
    func fetchTopPhysics() throws -> Int
    /// Fetches every F grade into objects and turns it into an E; how many changed.
    func resitFailures() throws -> Int
    /// Deletes every school, student and grade; how many rows remain.
    func deleteAll() throws -> Int
}

protocol OrdersSubject {
    func load(_ orders: [OrderRow]) throws
    /// Every order, into objects; their checksum.
    func fetchAll() throws -> Int
}

protocol LookupSubject {
    func load(_ users: [UserRow]) throws
    /// The user with this id, by its unique index; its age.
    func find(_ id: UUID) throws -> Int
    func count(minimumAge: Int) throws -> Int
}

enum Orders {
    static let rowCount = 16_000
    static let fetchesPerRun = 50
}

enum Lookup {
    static let rowCount = 100_000
    static let lookupsPerRun = 1_000
    static let countsPerRun = 10
}

/// Runs a workload's phases `runs` times in this process, each run on a fresh store in a fresh
/// directory (created and removed outside the timed phases).
enum Driver {
    static func simple(size: Int, runs: Int, make: (ScratchDirectory) throws -> any SimpleSubject) throws -> ChildReport {
        let users = UserRow.generate(size)
        var report = ChildReport()
        for _ in 0..<runs {
            let directory = try ScratchDirectory()
            defer { directory.remove() }
            do {
                let subject = try make(directory)
                try report.record(.insert) { try subject.insert(users) }
                try report.record(.fetch) { try subject.fetchJanes() }
                try report.record(.update) { try subject.renameJanes() }
                try report.record(.delete) { try subject.deleteAll() }
            }
        }
        return report
    }

    static func complex(size: Int, runs: Int, make: (ScratchDirectory) throws -> any ComplexSubject) throws -> ChildReport {
        let graph = SchoolGraph.generate(students: size)
        var report = ChildReport()
        for _ in 0..<runs {
            let directory = try ScratchDirectory()
            defer { directory.remove() }
            do {
                let subject = try make(directory)
                try report.record(.insert) { try subject.insert(graph) }
                try report.record(.fetch) { try subject.fetchTopPhysics() }
                try report.record(.update) { try subject.resitFailures() }
                try report.record(.delete) { try subject.deleteAll() }
            }
        }
        return report
    }

    static func orders(runs: Int, fetches: Int = Orders.fetchesPerRun, make: (ScratchDirectory) throws -> any OrdersSubject) throws -> ChildReport {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        var report = ChildReport()
        do {
            let subject = try make(directory)
            try subject.load(OrderRow.generate(Orders.rowCount))
            for _ in 0..<runs {
                try report.record(.fetchAll) {
                    var check = 0
                    for _ in 0..<fetches { check &+= try subject.fetchAll() }
                    return check
                }
            }
        }
        return report
    }

    static func lookup(runs: Int, make: (ScratchDirectory) throws -> any LookupSubject) throws -> ChildReport {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let users = UserRow.generate(Lookup.rowCount)
        var random = SeededGenerator(seed: 4)
        let keys = (0..<Lookup.lookupsPerRun).map { _ in users.randomElement(using: &random)!.id }
        var report = ChildReport()
        do {
            let subject = try make(directory)
            try subject.load(users)
            for _ in 0..<runs {
                try report.record(.lookup) { try keys.reduce(0) { $0 &+ (try subject.find($1)) } }
                try report.record(.count) {
                    try (0..<Lookup.countsPerRun).reduce(0) { sum, index in sum &+ (try subject.count(minimumAge: 40 + index)) }
                }
            }
        }
        return report
    }
}
