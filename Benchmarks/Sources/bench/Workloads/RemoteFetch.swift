import Foundation

enum RemoteFetch {
    static let rowCount = 100_000
    static let fetchesPerRun = 100
    static let limit = 100
}

/// 100 users out of 100,000 by a predicate (`age == a`, limited to 100), into objects.
protocol RemoteFetchSubject {
    func load(_ users: [UserRow]) throws
    /// The first 100 users of this age; their checksum.
    func fetchHundred(age: Int) throws -> Int
}

extension Driver {
    /// Loads the store once, then times 100 fetches of 100 users per run (ages 18 to 90 in turn:
    /// each age has about 1,370 users, so every fetch returns exactly 100).
    static func remote(runs: Int, make: (ScratchDirectory) throws -> any RemoteFetchSubject) throws -> ChildReport {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        var report = ChildReport()
        do {
            let subject = try make(directory)
            try subject.load(UserRow.generate(RemoteFetch.rowCount))
            for _ in 0..<runs {
                try report.record(.fetchHundred) {
                    try (0..<RemoteFetch.fetchesPerRun).reduce(0) { sum, index in sum &+ (try subject.fetchHundred(age: 18 + index % 73)) }
                }
            }
        }
        return report
    }
}
