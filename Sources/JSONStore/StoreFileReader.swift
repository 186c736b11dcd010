import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a store file and accepts it only when it is proven whole, so that a read that went
/// wrong is never taken for a damaged store, nor damage for a store.
///
/// - A file that is there but empty is refused: a store is created only where no file exists.
/// - A file whose checksum (``FileChecksum``) does not match, or that `accept` refuses, is read
///   again: other bytes the second time mean the first read went wrong (or another process
///   replaced the file meanwhile), and the new bytes are judged; the same bytes twice are damage.
/// - A failed system call is an I/O error (``JSONStoreError/Code/ioFailure``), never damage.
enum StoreFileReader {
    /// `accept`'s value for the file's bytes, and the version read; nil when there is no file.
    static func read<T>(_ url: URL, _ accept: (Data) throws -> T) throws -> (value: T, bytes: Data, stamp: FileStamp)? {
        var previous: Data?
        for _ in 0..<3 {
            let file: (bytes: Data, stamp: FileStamp)?
            do {
                file = try DurableFile.read(url)
            } catch {
                throw JSONStoreError.io(error, reading: url)
            }
            guard let file else { return nil }
            guard !file.bytes.isEmpty else {
                throw JSONStoreError(.unreadableFile, "\(url.path) is empty (0 bytes), so it holds no store: a JSON store is created only where no file exists. Pass the path of a file that does not exist to create one, or restore this file from a backup.", url: url)
            }
            let failure: JSONStoreError
            if FileChecksum.verify(file.bytes) == .mismatch {
                failure = JSONStoreError(.unreadableFile, "\(url.path) is damaged: its checksum, the last element {\"crc32c\": …}, does not match its contents (read twice, the same both times). Restore it from a backup; if you edited it by hand, remove that element and the store reads the file as it is. Until then the store refuses to save over it.", url: url)
            } else {
                do {
                    return (try accept(file.bytes), file.bytes, file.stamp)
                } catch let error as JSONStoreError {
                    failure = error
                } catch {
                    failure = JSONStoreError.unreadable(url, error, bytes: file.bytes)
                }
            }
            if previous == file.bytes { throw failure }
            previous = file.bytes
        }
        throw JSONStoreError(.ioFailure, "\(url.path) read differently three times in a row, so it is changing while it is read (another program writing it in place) or the disk returns wrong data. Nothing was changed; retry, and check the disk.", url: url)
    }
}

extension JSONStoreError {
    /// An I/O error reading or writing `url`, with advice for its cause.
    static func io(_ error: POSIXFailure, reading url: URL) -> JSONStoreError {
        JSONStoreError(.ioFailure, "The JSON store cannot read \(url.path): \(error). \(error.advice) The file itself may well be intact; nothing was changed.", url: url, underlying: error)
    }
}

extension POSIXFailure {
    /// What to do about the failure, by its cause.
    var advice: String {
        switch code {
        case EACCES, EPERM: "Check the file's and the directory's permissions."
        case ENOSPC, EDQUOT: "The disk is full; free some space."
        case EIO: "The disk reported an I/O error: retry, and check the disk."
        default: "Retry, and check the disk and the file's permissions."
        }
    }
}
