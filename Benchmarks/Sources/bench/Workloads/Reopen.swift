import Foundation

/// Issue 5: what a 100,000-model store costs to open and to save one change into. The JSON store
/// reads and rewrites its whole file, the SQLite stores touch a few pages; this workload puts a
/// number on the difference.
protocol ReopenSubject {
    /// Writes the store once, before any timed phase.
    func create(_ users: [UserRow]) throws
    /// Opens the store afresh, as a newly started app would, and counts its users, so that a store
    /// that loads lazily has really read its file; the count.
    func load() throws -> Int
    /// Fetches the user with this id into the store opened by `load`, ready for `saveOne`.
    func pick(_ id: UUID) throws
    /// Gives the picked user this age and saves that one change; how many users changed.
    func saveOne(age: Int) throws -> Int
}

enum Reopen {
    static let rowCount = 100_000
}

extension Driver {
    /// One store, written once; each run opens it anew and saves one changed user into it. The
    /// age differs per run so that every save really changes a value.
    static func reopen(runs: Int, make: (ScratchDirectory) throws -> any ReopenSubject) throws -> ChildReport {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let users = UserRow.generate(Reopen.rowCount)
        let picked = users[users.count / 2].id
        var report = ChildReport()
        do {
            let subject = try make(directory)
            try subject.create(users)
            for run in 0..<runs {
                try report.record(.load) { try subject.load() }
                try subject.pick(picked)
                try report.record(.saveOne) { try subject.saveOne(age: 200 + run) }
            }
        }
        return report
    }
}
