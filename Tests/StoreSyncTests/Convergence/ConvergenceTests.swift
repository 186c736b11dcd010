import Foundation
import Testing

/// Random programs of edits, offline stretches, restarts and sync rounds on three clients of one
/// server; after a final round everywhere, every client's store must equal the server's.
///
/// CI runs 200 programs of 30 steps (`SYNC_PROGRAMS`, `SYNC_PROGRAM_LENGTH`, `SYNC_SEED` set
/// others). A divergence fails with its seed and the program shrunk to the steps it needs.
@Suite struct ConvergenceTests {
    private static let environment = ProcessInfo.processInfo.environment
    static let programs = environment["SYNC_PROGRAMS"].flatMap(Int.init) ?? 200
    static let length = environment["SYNC_PROGRAM_LENGTH"].flatMap(Int.init) ?? 30
    static let firstSeed = environment["SYNC_SEED"].flatMap(UInt64.init) ?? 1
    /// Programs run side by side: their time is mostly waiting on loopback round trips.
    static let parallel = 3

    @Test func everyClientEndsEqualToTheServer() async throws {
        let seeds = Array(Self.firstSeed..<Self.firstSeed + UInt64(Self.programs))
        var failures: [(UInt64, String)] = []
        try await withThrowingTaskGroup(of: (UInt64, String?).self) { group in
            var next = seeds.makeIterator()
            for _ in 0..<Self.parallel {
                guard let seed = next.next() else { break }
                group.addTask { (seed, try await Self.divergence(SyncProgram.make(seed: seed, length: Self.length))) }
            }
            while let (seed, failure) = try await group.next() {
                if let failure { failures.append((seed, failure)) }
                if failures.isEmpty, let seed = next.next() {
                    group.addTask { (seed, try await Self.divergence(SyncProgram.make(seed: seed, length: Self.length))) }
                }
            }
        }
        guard let (seed, failure) = failures.min(by: { $0.0 < $1.0 }) else { return }
        let program = SyncProgram.make(seed: seed, length: Self.length)
        let shrunk = Self.programs == 1 ? program : try await Self.shrink(program)
        Issue.record("""
            Program \(seed) diverged: \(failure)
            Shrunk to \(shrunk.count) steps:
            \(shrunk.map { "    .\($0)," }.joined(separator: "\n"))
            Run it again with SYNC_SEED=\(seed) SYNC_PROGRAMS=1.
            """)
    }

    /// Nil when every client ended equal to the server; what differed otherwise.
    static func divergence(_ steps: [SyncStep]) async throws -> String? {
        let world = try SyncWorld()
        defer { world.close() }
        do {
            try await world.run(steps)
            try await world.settle()
        } catch {
            return "a step failed: \(error)"
        }
        let (clients, server) = try world.dumps()
        for (index, dump) in clients.enumerated() where dump != server {
            return """
                client \(index) differs from the server.
                  only on the client: \(Set(dump).subtracting(server).sorted())
                  only on the server: \(Set(server).subtracting(dump).sorted())
                """
        }
        return nil
    }

    /// The smallest program found that still diverges: chunks of steps removed while it does
    /// (delta debugging), halving the chunk size down to one step.
    static func shrink(_ steps: [SyncStep]) async throws -> [SyncStep] {
        var current = steps
        var chunk = max(1, current.count / 2)
        while chunk >= 1 {
            var start = 0
            var removed = false
            while start < current.count {
                var candidate = current
                candidate.removeSubrange(start..<min(start + chunk, candidate.count))
                if try await divergence(candidate) != nil {
                    current = candidate
                    removed = true
                } else {
                    start += chunk
                }
            }
            if !removed { chunk /= 2 }
        }
        return current
    }
}
