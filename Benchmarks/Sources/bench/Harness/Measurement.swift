import Foundation

/// Wall-clock time of `body`, in milliseconds.
func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
}

func medianValue(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The process's peak resident set size so far (`VmHWM`), in kibibytes.
func peakResidentKiB() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
    return 0
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
struct ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("osd-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// What a child process reports for one contender, workload and size: per phase, the time of
/// every run, and the check value of the last run (equal across contenders when they did the
/// same work).
struct ChildReport: Codable {
    var timings: [String: [Double]] = [:]
    var checks: [String: Int] = [:]
    var peakResidentKiB = 0

    mutating func record(_ phase: Phase, _ body: () throws -> Int) rethrows {
        var check = 0
        let time = try milliseconds { check = try body() }
        timings[phase.rawValue, default: []].append(time)
        checks[phase.rawValue] = check
    }
}
