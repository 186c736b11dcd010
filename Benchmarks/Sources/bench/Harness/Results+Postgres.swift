import Foundation

extension Results {
    /// PostgresStore against PostgresNIO by hand, phase by phase, against its targets, and the
    /// three-server throughput.
    func postgresSection() -> [String] {
        let measured = rows.filter { row in
            row.workload.isThroughput ? row.median(.osdPostgres, .savesPerSecond) != nil
                : row.median(.postgresRaw, row.workload.phases[0]) != nil
        }
        guard !measured.isEmpty else { return [] }
        var lines = [
            "",
            "## PostgreSQL",
            "",
            """
            OpenSwiftData's PostgresStore (OSD PostgreSQL) against PostgresNIO with hand-written SQL and bound values (PG raw), \
            on the same server in the same command, each run on the database `osd_bench` emptied anew. Medians in milliseconds.
            """,
            "",
            "| workload | N | phase | PG raw | OSD PostgreSQL | ratio | target |",
            "|---|--:|---|--:|--:|--:|--:|",
        ]
        for row in measured where !row.workload.isThroughput {
            for phase in row.workload.phases {
                guard let raw = row.median(.postgresRaw, phase), let osd = row.median(.osdPostgres, phase) else { continue }
                let target = phase.postgresTarget.map { "≤ \(String(format: "%.1f", $0))× \(osd / raw <= $0 ? "✅" : "❌")" } ?? "–"
                lines.append("| \(row.workload.rawValue) | \(Self.number(row.size)) | \(phase.rawValue) | \(Self.ms(raw)) | \(Self.ms(osd)) | "
                             + "\(Self.ratio(osd / raw)) | \(target) |")
            }
        }
        for row in measured where row.workload.isThroughput {
            guard case .finished(let report) = row.outcomes[.osdPostgres], let rates = report.timings[Phase.savesPerSecond.rawValue] else { continue }
            lines += [
                "",
                """
                Three StoreServers in one process, each over a PostgresStore of its own on the same database, and \
                \(ThreeServers.clients) RemoteStore clients (threads) spread over them, each saving one new `#Unique` user per save \
                for \(ThreeServers.duration.components.seconds) s, every other one under an id all clients share: \
                \(Self.number(Int(medianValue(rates).rounded()))) saves/s (median of \(rates.count) runs; \
                \(rates.map { Self.number(Int($0.rounded())) }.joined(separator: ", "))).
                """,
            ]
        }
        return lines
    }
}
