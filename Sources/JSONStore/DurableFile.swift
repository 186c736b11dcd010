import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and replaces the store's file so that a crash at any instant leaves either the old or the
/// new version, whole: the new bytes go to a temporary file in the same directory, which is synced,
/// renamed over the old file, and the directory synced so the rename itself survives a power loss.
/// (Foundation's `.atomic` write skips the directory sync on Linux, and leaves its temporary file
/// behind when the process is killed.)
enum DurableFile {
    /// Why a replacement failed, and whether the new file is in place.
    enum ReplaceFailure: Error {
        /// The old file is untouched, and the temporary file removed.
        case notReplaced(POSIXFailure)
        /// The new file is in place (with this stamp), but syncing the directory failed, so the
        /// rename may not survive a power loss.
        case notSynced(POSIXFailure, FileStamp)
    }

    /// The prefix of the temporary files of `url`: hidden, and named after the file, so the ones a
    /// killed writer left behind can be found and removed.
    static func temporaryPrefix(of url: URL) -> String { ".\(url.lastPathComponent).tmp-" }

    /// The file's bytes and the stamp of the version read, or nil when there is no file.
    static func read(_ url: URL) throws(POSIXFailure) -> (bytes: Data, stamp: FileStamp)? {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw POSIXFailure(operation: "open", errno: errno)
        }
        if injected(.read, url.path) { throw POSIXFailure(operation: "read", errno: EIO) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw POSIXFailure(operation: "fstat", errno: errno) }
        var bytes = Data(count: Int(info.st_size))
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                posixRead(descriptor, buffer.baseAddress! + total, buffer.count - total)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw POSIXFailure(operation: "read", errno: errno)
            }
            if count == 0 || injected(.shortRead, url.path) {
                // A file that shrank while being read was edited in place, and is read as it now
                // is; an end before the size the file still has is a failed read, not damage.
                var now = stat()
                guard fstat(descriptor, &now) == 0, now.st_size < info.st_size, count == 0 else {
                    throw POSIXFailure(operation: "read (the file ended before its size)", errno: EIO)
                }
                break
            }
            total += count
        }
        bytes.count = total
        if !bytes.isEmpty, injected(.garbledRead, url.path) { bytes[bytes.count / 2] ^= 1 }
        return (bytes, FileStamp(info))
    }

    /// Replaces the file with `bytes`; returns the stamp of the new version. On a failure before
    /// the rename the old file is untouched and the temporary file removed (`.notReplaced`); a
    /// failure after it leaves the new file in place (`.notSynced`).
    static func replace(_ url: URL, with bytes: Data) throws(ReplaceFailure) -> FileStamp {
        let directory = url.deletingLastPathComponent().path
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(temporaryPrefix(of: url) + "\(getpid())-\(UInt32.random(in: .min ... .max))").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .notReplaced(POSIXFailure(operation: "open (temporary file)", errno: errno)) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        let stamp: FileStamp
        do throws(POSIXFailure) {
            defer { close(descriptor) }
            var previous = stat()
            if stat(url.path, &previous) == 0 { fchmod(descriptor, previous.st_mode & 0o7777) }  // keep the file's permissions
            try writeAll(bytes, to: descriptor, path: url.path)
            guard fsync(descriptor) == 0 else { throw POSIXFailure(operation: "fsync", errno: errno) }
            if injected(.fsync, url.path) { throw POSIXFailure(operation: "fsync", errno: EIO) }
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw POSIXFailure(operation: "fstat", errno: errno) }
            stamp = FileStamp(info)
        } catch {
            throw .notReplaced(error)
        }
        if injected(.rename, url.path) { throw .notReplaced(POSIXFailure(operation: "rename", errno: EIO)) }
        guard rename(temporary, url.path) == 0 else { throw .notReplaced(POSIXFailure(operation: "rename", errno: errno)) }
        renamed = true
        do throws(POSIXFailure) {
            try syncDirectory(directory, of: url.path)
        } catch {
            throw .notSynced(error, stamp)
        }
        return stamp
    }

    /// Removes the temporary files a killed writer left. Call only while holding the store's lock,
    /// so no live writer's temporary file is taken.
    static func removeOrphans(of url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = temporaryPrefix(of: url)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    private static func writeAll(_ bytes: Data, to descriptor: Int32, path: String) throws(POSIXFailure) {
        if injected(.write, path) { throw POSIXFailure(operation: "write", errno: ENOSPC) }
        var failure: POSIXFailure?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = POSIXFailure(operation: "write", errno: errno)
                    return
                }
                offset += count
            }
        }
        if let failure { throw failure }
    }

    private static func syncDirectory(_ path: String, of file: String) throws(POSIXFailure) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw POSIXFailure(operation: "open (directory)", errno: errno) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw POSIXFailure(operation: "fsync (directory)", errno: errno) }
        if injected(.directoryFsync, file) { throw POSIXFailure(operation: "fsync (directory)", errno: EIO) }
    }
}

/// The C `read`, which `DurableFile.read` hides inside the enum.
private func posixRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
