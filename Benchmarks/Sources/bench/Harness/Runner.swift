import Foundation
import GRDBSQLite

/// `bench [options]`: runs every contender on every workload, each in a child process, prints
/// the table and writes RESULTS.md.
enum Runner {
    struct Options {
        var workloads = Workload.allCases
        var contenders = Contender.allCases
        var sizes: Set<Int>?
        var runs: Int?
        var output = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("RESULTS.md")
        var timeout = Duration.seconds(300)

        static let usage = """
            usage: bench [--workloads simple,simple-unique,complex,orders,lookup,reopen,remote,graph-append,migrate-add,migrate-custom,history-insert,history-fetch,hierarchy-fetch,three-servers,browse,sync]
                         [--contenders raw,grdb,grdb-codable,osd,osd-memory,osd-rows,osd-json,osd-remote,pg-raw,osd-pg]
                         [--sizes 1000,10000] [--runs N] [--output PATH] [--timeout SECONDS] [--postgres-url URL]
            Without options: everything, written to Benchmarks/RESULTS.md (about 10 minutes on two cores).
            pg-raw and osd-pg use the PostgreSQL server of --postgres-url or OSD_POSTGRES_URL, in a database osd_bench
            they drop and create; without one they are skipped.
            """

        init(_ arguments: [String]) throws {
            var rest = arguments[...]
            func value(_ flag: String) throws -> String {
                guard let value = rest.popFirst() else { throw UsageError("\(flag) needs a value\n\(Self.usage)") }
                return value
            }
            while let flag = rest.popFirst() {
                switch flag {
                case "--workloads":
                    workloads = try list(try value(flag)) { Workload(rawValue: $0) }
                case "--contenders":
                    contenders = try list(try value(flag)) { Contender(key: $0) }
                case "--sizes":
                    sizes = Set(try list(try value(flag)) { Int($0.replacingOccurrences(of: "_", with: "")) })
                case "--runs":
                    runs = try list(try value(flag)) { Int($0) }.first
                case "--output":
                    output = URL(fileURLWithPath: try value(flag))
                case "--postgres-url":
                    // The children read it from the environment, as they read an exported one.
                    setenv(BenchPostgres.environmentKey, try value(flag), 1)
                case "--timeout":
                    timeout = .seconds(try list(try value(flag)) { Int($0) }.first ?? 300)
                default:
                    throw UsageError(Self.usage)
                }
            }
        }

        private func list<T>(_ text: String, _ parse: (String) -> T?) throws -> [T] {
            try text.split(separator: ",").map { item in
                guard let parsed = parse(String(item)) else { throw UsageError("unknown value '\(item)'\n\(Self.usage)") }
                return parsed
            }
        }
    }

    static func main(_ arguments: [String]) throws {
        let options = try Options(arguments)
        let started = ContinuousClock.now
        var results = Results(contenders: options.contenders)
        let postgresMissing = BenchPostgres.url == nil
        if postgresMissing, options.contenders.contains(where: \.isPostgres) {
            log("PostgreSQL contenders skipped: no server; from the repository root, eval \"$(scripts/postgres-cluster.sh start)\"\n")
        }
        for workload in options.workloads {
            for size in workload.sizes where options.sizes?.contains(size) ?? true {
                let runs = options.runs ?? workload.runs(size: size)
                for contender in options.contenders {
                    if let reason = workload.skipReason(contender, size: size) ?? (contender.isPostgres && postgresMissing ? BenchPostgres.notConfigured : nil) {
                        results.add(workload, size: size, runs: runs, contender, .skipped(reason))
                        continue
                    }
                    log("\(workload.rawValue) N=\(size) ×\(runs) \(contender.rawValue)… ")
                    let clock = ContinuousClock.now
                    let outcome = ChildProcess.run([workload.rawValue, contender.key, "\(size)", "\(runs)"], timeout: options.timeout)
                    log("\(format(seconds: ContinuousClock.now - clock))\(outcome.failure.map { " FAILED: \($0)" } ?? "")\n")
                    results.add(workload, size: size, runs: runs, contender, outcome)
                }
            }
        }
        if case .finished(let idle) = ChildProcess.run(["idle"], timeout: .seconds(30)) {
            results.idlePeakResidentKiB = idle.peakResidentKiB
        }
        results.elapsed = ContinuousClock.now - started
        results.sqliteVersion = String(cString: sqlite3_libversion())
        let markdown = results.markdown()
        print(markdown)
        try markdown.write(to: options.output, atomically: true, encoding: .utf8)
        log("wrote \(options.output.path) in \(format(seconds: results.elapsed))\n")
    }

    static func log(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    static func format(seconds duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        return seconds < 60 ? String(format: "%.1f s", seconds) : String(format: "%d min %02d s", Int(seconds) / 60, Int(seconds) % 60)
    }
}

extension ChildProcess.Outcome {
    var failure: String? {
        if case .failed(let reason) = self { return reason }
        return nil
    }
}
