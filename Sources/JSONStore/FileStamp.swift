#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What identifies one version of the file: a rename gives a new inode, an in-place edit a new
/// size or modification time. The store reloads when the stamp on disk differs from the one of
/// the version it holds, so another process's save is never overwritten unseen.
struct FileStamp: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int64(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
    }

    /// The stamp of the file at `path`, or nil when there is no file.
    static func current(atPath path: String) throws(POSIXFailure) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw POSIXFailure(operation: "stat", errno: errno)
        }
        return FileStamp(info)
    }
}

/// A failed system call, with its errno, before it becomes a ``JSONStoreError`` that names the file.
struct POSIXFailure: Error, CustomStringConvertible {
    let operation: String
    let code: Int32

    init(operation: String, errno code: Int32) {
        self.operation = operation
        self.code = code
    }

    var description: String { "\(operation) failed: \(String(cString: strerror(code))) (errno \(code))" }
}
