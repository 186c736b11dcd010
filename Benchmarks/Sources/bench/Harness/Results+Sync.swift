import Foundation

extension Results {
    /// The sync workload: each phase's median, the first syncs and the 1,000 changes also in rows
    /// per second, against the issue's targets.
    func syncSection() -> [String] {
        var lines: [String] = []
        for row in rows where row.workload == .sync {
            guard case .finished(let report) = row.outcomes[.osdSQLite] else { continue }
            lines += [
                "",
                "## Sync",
                "",
                """
                StoreSync (issue 49): two clients, each an engine on a default store file of its own, and a StoreServer over a \
                default store, in one process, over HTTP on 127.0.0.1; each run on fresh stores. The first push is the first \
                client's first round with \(Self.number(row.size)) local users and an empty server (its pull then takes the \
                server's rows back, all known); the first pull is a second client's first round on an empty store (a snapshot). \
                Then \(Self.number(SyncBench.changes)) users change on the first client: its round pushes them, the second's \
                pulls them. Last, both run continuous sync (`start()`) and the first saves one new user \
                \(Self.number(SyncBench.latencySamples)) times (after \(SyncBench.warmUpSamples) untimed), each time waiting \
                until the second client's engine has saved it. Medians of \(row.runs) runs.
                """,
                "",
                "| phase | median | rows/s | target |",
                "|---|--:|--:|---|",
            ]
            for phase in row.workload.phases {
                guard let times = report.timings[phase.rawValue] else { continue }
                let time = medianValue(times)
                let rows = phase == .syncFirstPush || phase == .syncFirstPull ? row.size
                    : phase == .syncPushChanges || phase == .syncPullChanges ? SyncBench.changes : nil
                let rate = rows.map { Double($0) / (time / 1_000) }
                let target: String = switch phase {
                case .syncFirstPush, .syncFirstPull: rate.map { "≥ 27,600 rows/s \($0 >= 27_600 ? "✅" : "❌")" } ?? "–"
                case .syncLatencyP50: "< 100 ms \(time < 100 ? "✅" : "❌")"
                default: "–"
                }
                lines.append("| \(phase.rawValue) | \(Self.ms(time)) ms | \(rate.map { Self.number(Int($0.rounded())) } ?? "–") | \(target) |")
            }
        }
        return lines
    }
}
