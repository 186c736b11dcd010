import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory `flock` on a hidden sidecar file (`.<file>.lock`), held while a store reloads and
/// writes, so two processes (or two stores in one process) never write over each other's saves.
/// The lock is on a sidecar because every save replaces the data file's inode.
final class FileLock: @unchecked Sendable {
    let url: URL
    private let descriptor: Int32
    /// How long a writer waits for another one before it gives up with ``JSONStoreError/Code/locked``.
    private let timeout: Duration

    init(for dataFile: URL, timeout: Duration = .seconds(30)) throws(POSIXFailure) {
        url = dataFile.deletingLastPathComponent().appendingPathComponent(".\(dataFile.lastPathComponent).lock")
        self.timeout = timeout
        descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXFailure(operation: "open (lock file)", errno: errno) }
    }

    deinit { close(descriptor) }

    /// Runs `body` holding the exclusive lock; returns false (without running it) after the timeout.
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T? {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var pause = Duration.milliseconds(1)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw POSIXFailure(operation: "flock", errno: errno) }
            guard clock.now < deadline else { return nil }
            Thread.sleep(forTimeInterval: Double(pause.components.attoseconds) / 1e18)
            pause = min(pause * 2, .milliseconds(50))
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
