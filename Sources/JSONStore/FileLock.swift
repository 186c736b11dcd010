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

    init(for dataFile: URL) throws(POSIXFailure) {
        url = dataFile.deletingLastPathComponent().appendingPathComponent(".\(dataFile.lastPathComponent).lock")
        descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXFailure(operation: "open (lock file)", errno: errno) }
    }

    deinit { close(descriptor) }

    /// Runs `body` holding the exclusive lock. Waits in the kernel, which wakes waiters in turn, so
    /// a process saving in a tight loop cannot starve another; the kernel drops the lock of a
    /// process that dies, so a crashed writer never blocks the others.
    func withExclusiveLock<T>(_ body: () throws -> T) throws -> T {
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw POSIXFailure(operation: "flock", errno: errno) }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
