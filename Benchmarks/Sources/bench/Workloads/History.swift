import Foundation

/// History (issue 27), in OpenSwiftData alone. `history-insert`: the simple workload's insert of
/// N users in one save, on a store that keeps history against the same store with history off.
/// `history-fetch`: the transactions after a token, read 100 times with 100 different tokens near
/// the end, in a history of 100,000 transactions against one of 1,000: the ratio shows whether
/// reading after a token depends on how much history there is.
enum HistoryBench {
    /// How many fetches one timed phase of `history-fetch` makes, and how many transactions each reads.
    static let fetchesPerRun = 100
    /// The smaller history `history-fetch` compares with.
    static let smallHistory = 1_000
}

protocol HistoryInsertSubject {
    /// Inserts the users in one save; how many are stored.
    func insert(_ users: [UserRow]) throws -> Int
}

protocol HistoryFetchSubject {
    /// Saves `count` transactions, each inserting one user (untimed).
    func record(_ count: Int) throws
    /// The transactions after the `back`-th newest, oldest first; how many changes they hold.
    func changes(after back: Int) throws -> Int
}

extension Driver {
    /// Each run inserts the users on two fresh stores, history off first, then on.
    static func historyInsert(size: Int, runs: Int, make: (ScratchDirectory, _ keepsHistory: Bool) throws -> any HistoryInsertSubject) throws -> ChildReport {
        let users = UserRow.generate(size)
        var report = ChildReport()
        for _ in 0..<runs {
            for phase in [Phase.insertHistoryOff, .insertHistoryOn] {
                let directory = try ScratchDirectory()
                defer { directory.remove() }
                let subject = try make(directory, phase == .insertHistoryOn)
                try report.record(phase) { try subject.insert(users) }
            }
        }
        return report
    }

    /// Two stores are written once (untimed), one with 1,000 transactions and one with `size`;
    /// each run reads after the same 100 tokens in both.
    static func historyFetch(size: Int, runs: Int, make: (ScratchDirectory) throws -> any HistoryFetchSubject) throws -> ChildReport {
        let directories = try (ScratchDirectory(), ScratchDirectory())
        defer { directories.0.remove(); directories.1.remove() }
        let small = try make(directories.0)
        try small.record(HistoryBench.smallHistory)
        let large = try make(directories.1)
        try large.record(size)
        var report = ChildReport()
        let backs = (0..<HistoryBench.fetchesPerRun).map { HistoryBench.fetchesPerRun + $0 }
        for _ in 0..<runs {
            try report.record(.historyAmongFew) { try backs.reduce(0) { $0 + (try small.changes(after: $1)) } }
            try report.record(.historyAmongMany) { try backs.reduce(0) { $0 + (try large.changes(after: $1)) } }
        }
        return report
    }
}
