import Synchronization

extension DurableFile {
    /// A step of reading or replacing a file that a test can make fail.
    enum Step: Hashable, Sendable {
        case write, fsync, rename, directoryFsync
        /// Opening for reading succeeds, the read fails with EIO.
        case read
        /// The read ends early, before the file's size.
        case shortRead
        /// The read returns the file with one bit flipped, as a failing disk or cable might.
        case garbledRead
    }

    /// The failures tests asked for, by file path: each fails the next time its step runs on
    /// that file, once. Keyed by path, so tests running at once do not meet each other's.
    private static let faults = Mutex<[String: Set<Step>]>([:])

    /// Makes `step` fail the next time it runs on the file at `path`.
    static func injectFaultForTesting(_ step: Step, atPath path: String) {
        faults.withLock { _ = $0[path, default: []].insert(step) }
    }

    /// Whether `step` on `path` is to fail now; consumes the fault.
    static func injected(_ step: Step, _ path: String) -> Bool {
        faults.withLock { faults in
            guard !faults.isEmpty, faults[path]?.remove(step) != nil else { return false }
            if faults[path]?.isEmpty == true { faults[path] = nil }
            return true
        }
    }
}
