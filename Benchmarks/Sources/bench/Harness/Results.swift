import Foundation

/// Everything one `bench` run measured, and its rendering as RESULTS.md.
struct Results {
    struct Row {
        var workload: Workload
        var size: Int
        var runs: Int
        var outcomes: [Contender: ChildProcess.Outcome] = [:]
    }

    let contenders: [Contender]
    private(set) var rows: [Row] = []
    var idlePeakResidentKiB = 0
    var elapsed = Duration.zero
    var sqliteVersion = ""

    init(contenders: [Contender]) { self.contenders = contenders }

    mutating func add(_ workload: Workload, size: Int, runs: Int, _ contender: Contender, _ outcome: ChildProcess.Outcome) {
        if rows.last?.workload != workload || rows.last?.size != size { rows.append(Row(workload: workload, size: size, runs: runs)) }
        rows[rows.count - 1].outcomes[contender] = outcome
    }

    func markdown() -> String {
        let machine = "\(Self.cpu()) (\(ProcessInfo.processInfo.activeProcessorCount) cores), SQLite \(sqliteVersion)"
        let names = contenders.map(\.rawValue).joined(separator: " | ")
        let alignment = String(repeating: "--:|", count: contenders.count)
        var lines = [
            "# OpenSwiftData benchmarks",
            "",
            "`swift run -c release --package-path Benchmarks bench`, \(Self.today()), on \(machine); the whole command took \(Runner.format(seconds: elapsed)).",
            "",
            """
            Each cell is the median wall time of the runs, in milliseconds, and in parentheses its ratio to raw SQLite measured \
            in the same command (OSD PostgreSQL's to PG raw, PostgresNIO by hand, on the same server). Every contender × \
            workload × size runs in its own child process (same binary), each run of simple and complex on a fresh database \
            file in a fresh temporary directory. Runs: simple and simple-unique 7 for \
            1,000, 5 for 10,000, 3 for 100,000; complex 5 for 1,000, 3 for 10,000; orders 3, lookup 5 and reopen 5, each on one \
            database loaded once. The last two columns hold OpenSwiftData's \
            default store (OSD SQLite) against its target ratio to raw SQLite, and against GRDB Codable (goal: under 1.0×). \
            See README.md for what each phase does.
            """,
            "",
            "## Time",
            "",
            "| workload | N | phase | \(names) | OSD SQLite target | OSD SQLite ÷ GRDB Codable |",
            "|---|--:|---|\(alignment)---|--:|",
        ]
        for row in rows where !row.workload.isPaired && !row.workload.hasSectionOfItsOwn {
            for phase in row.workload.phases {
                let raw = row.median(.rawSQLite, phase)
                var cells = [row.workload.rawValue, Self.number(row.size), phase.rawValue]
                for contender in contenders {
                    if case .skipped(let reason) = row.outcomes[contender] {
                        cells.append(reason)
                    } else if let failure = row.outcomes[contender]?.failure {
                        cells.append("failed: \(failure)")
                    } else if let time = row.median(contender, phase) {
                        let base = contender.baseline.flatMap { row.median($0, phase) }
                        cells.append(base.map { "\(Self.ms(time)) (\(Self.ratio(time / $0)))" } ?? Self.ms(time))
                    } else {
                        cells.append("–")
                    }
                }
                if let osd = row.median(.osdSQLite, phase), let raw {
                    cells.append("≤ \(String(format: "%.1f", phase.target))× \(osd / raw <= phase.target ? "✅" : "❌")")
                } else {
                    cells.append("–")
                }
                if let osd = row.median(.osdSQLite, phase), let codable = row.median(.grdbCodable, phase) {
                    cells.append("\(Self.ratio(osd / codable)) \(osd < codable ? "✅" : "❌")")
                } else {
                    cells.append("–")
                }
                lines.append("| " + cells.joined(separator: " | ") + " |")
            }
        }
        lines += pairedSections()
        lines += postgresSection()
        lines += syncSection()
        lines += [
            "",
            "## Peak memory",
            "",
            """
            Peak resident set size (`VmHWM`) of each child process, in MiB, over all its runs. An idle child (the binary \
            loaded, nothing run) peaks at \(Self.mib(idlePeakResidentKiB)) MiB; that is included in every figure. Target: \
            OSD SQLite under 3× raw SQLite for the 100,000-user insert (simple, N = 100,000).
            """,
            "",
            "| workload | N | \(names) | OSD SQLite ÷ raw |",
            "|---|--:|\(alignment)--:|",
        ]
        for row in rows {
            var cells = [row.workload.rawValue, Self.number(row.size)]
            for contender in contenders { cells.append(row.peak(contender).map(Self.mib) ?? "–") }
            if let osd = row.peak(.osdSQLite), let raw = row.peak(.rawSQLite) {
                cells.append(Self.ratio(Double(osd) / Double(raw)))
            } else {
                cells.append("–")
            }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        lines += ["", "## Checks", ""]
        let mismatches = checkMismatches()
        lines.append(mismatches.isEmpty
            ? "Every contender's check values (row counts and checksums of what each phase fetched or changed) equal raw SQLite's (PG raw's where raw SQLite did not run)."
            : "Check values that differ from raw SQLite's or PG raw's (the contender did different work):")
        lines += mismatches.map { "- \($0)" }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The workloads that compare two ways of OpenSwiftData with each other: per store, the two
    /// phases' medians and the measured phase's ratio to its baseline, against its target.
    private func pairedSections() -> [String] {
        var lines: [String] = []
        for workload in Workload.allCases {
            guard let pair = workload.pair else { continue }
            let measured = rows.filter { $0.workload == workload }
            guard !measured.isEmpty else { continue }
            let target = pair.measured.target
            lines += [
                "",
                "## \(workload.sectionTitle)",
                "",
                "\(workload.sectionText) Medians in milliseconds; target: ≤ \(String(format: "%.2f", target))×.",
                "",
                "| N | store | \(pair.baseline.rawValue) | \(pair.measured.rawValue) | ratio |",
                "|---|---|--:|--:|--:|",
            ]
            for row in measured {
                for contender in contenders {
                    guard let baseline = row.median(contender, pair.baseline), let time = row.median(contender, pair.measured) else { continue }
                    let ratio = time / baseline
                    lines.append("| \(workload.sizeLabel(row.size)) | \(contender.rawValue) | \(Self.ms(baseline)) | "
                                 + "\(Self.ms(time)) | \(Self.ratio(ratio)) \(ratio <= target ? "✅" : "❌") |")
                }
            }
        }
        return lines
    }

    private func checkMismatches() -> [String] {
        var found: [String] = []
        for row in rows where !row.workload.isPaired && !row.workload.isThroughput {
            // PG raw stands in for raw SQLite when only the PostgreSQL contenders ran: same data, same checks.
            let reference: Contender = if case .finished = row.outcomes[.rawSQLite] { .rawSQLite } else { .postgresRaw }
            guard case .finished(let raw) = row.outcomes[reference] else { continue }
            for contender in contenders where contender != reference {
                guard case .finished(let report) = row.outcomes[contender] else { continue }
                for phase in row.workload.phases where report.checks[phase.rawValue] != raw.checks[phase.rawValue] {
                    found.append("\(row.workload.rawValue) N=\(row.size) \(phase.rawValue), \(contender.rawValue): \(report.checks[phase.rawValue] ?? -1), \(reference.rawValue): \(raw.checks[phase.rawValue] ?? -1)")
                }
            }
        }
        return found
    }

    static func ms(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f", value) : value < 100 ? String(format: "%.1f", value) : number(Int(value.rounded()))
    }

    static func ratio(_ value: Double) -> String { String(format: "%.2f×", value) }
    private static func mib(_ kib: Int) -> String { String(format: "%.1f", Double(kib) / 1024) }

    static func number(_ value: Int) -> String {
        let digits = String(value)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }

    private static func today() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date())
    }

    private static func cpu() -> String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = info.split(separator: "\n").first { $0.hasPrefix("model name") }?.split(separator: ":").last
        return model.map { $0.trimmingCharacters(in: .whitespaces) } ?? "an unknown CPU"
    }
}

extension Results.Row {
    func median(_ contender: Contender, _ phase: Phase) -> Double? {
        guard case .finished(let report) = outcomes[contender], let times = report.timings[phase.rawValue] else { return nil }
        return medianValue(times)
    }

    func peak(_ contender: Contender) -> Int? {
        guard case .finished(let report) = outcomes[contender] else { return nil }
        return report.peakResidentKiB
    }
}
