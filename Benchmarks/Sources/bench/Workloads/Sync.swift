import Foundation

/// Offline-first sync (issue 49): StoreSync engines on local default stores and a StoreServer
/// over a default store, in this process, on 127.0.0.1.
enum SyncBench {
    static let rowCount = 100_000
    static let changes = 1_000
    /// Saves timed under continuous sync, after the warm-up ones (the events streams connecting).
    static let latencySamples = 200
    static let warmUpSamples = 10
}

protocol SyncSubject {
    /// Saves `users` in the first client's local store, in one save (untimed).
    func load(_ users: [UserRow]) throws
    /// The first client's first round: every local user goes up to the empty server (and the
    /// round's pull brings the server's rows back, all known); how many users the server holds.
    func firstPush() throws -> Int
    /// A second client's first round, on an empty local store: every user comes down (the
    /// snapshot path); how many users it holds.
    func firstPull() throws -> Int
    /// Changes the age of `count` users of the first client and saves (untimed).
    func change(_ count: Int) throws
    /// The first client's round pushing those changes; how many users the server holds.
    func pushChanges() throws -> Int
    /// The second client's round pulling them; the sum of its users' ages.
    func pullChanges() throws -> Int
    /// Under continuous sync on both clients (`start()`), `samples` saves of one new user each on
    /// the first: the milliseconds from each save until the second client's engine saved the
    /// user into its store.
    func latencies(samples: Int, warmUp: Int) throws -> [Double]
}

extension Driver {
    /// Each run on fresh stores and a fresh server; the latencies are recorded as their p50 and p99.
    static func sync(size: Int, runs: Int, make: (ScratchDirectory) throws -> any SyncSubject) throws -> ChildReport {
        let users = UserRow.generate(size)
        var report = ChildReport()
        for _ in 0..<runs { try measure(make, users, into: &report) }
        return report
    }

    private static func measure(_ make: (ScratchDirectory) throws -> any SyncSubject, _ users: [UserRow], into report: inout ChildReport) throws {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let subject = try make(directory)
        try subject.load(users)
        try report.record(.syncFirstPush) { try subject.firstPush() }
        try report.record(.syncFirstPull) { try subject.firstPull() }
        try subject.change(SyncBench.changes)
        try report.record(.syncPushChanges) { try subject.pushChanges() }
        try report.record(.syncPullChanges) { try subject.pullChanges() }
        let latencies = try subject.latencies(samples: SyncBench.latencySamples, warmUp: SyncBench.warmUpSamples).sorted()
        report.timings[Phase.syncLatencyP50.rawValue, default: []].append(percentile(latencies, 0.50))
        report.timings[Phase.syncLatencyP99.rawValue, default: []].append(percentile(latencies, 0.99))
        report.checks[Phase.syncLatencyP50.rawValue] = latencies.count
    }

    /// The value below which `fraction` of the sorted `values` lie (nearest rank).
    private static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
