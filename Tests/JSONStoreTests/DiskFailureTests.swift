import Foundation
@testable import JSONStore
import OpenSwiftData
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A 64 KiB tmpfs, mounted for the disk-full test; nil when this process may not mount (not root).
enum SmallDisk {
    static let mountPoint: URL? = {
        #if os(Linux)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("JSONStoreTests-tmpfs-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard mount("tmpfs", url.path, "tmpfs", 0, "size=64k") == 0 else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        return url
        #else
        return nil
        #endif
    }()
}

@Suite struct DiskFailureTests {
    @Test(.enabled(if: SmallDisk.mountPoint != nil, "needs permission to mount a 64 KiB tmpfs (run the tests as root) to fill a disk"))
    func aFullDiskFailsTheSaveWithATypedErrorAndKeepsThePreviousFile() throws {
        let disk = try #require(SmallDisk.mountPoint)
        defer {
            #if os(Linux)
            // Lazily: the test's container may still hold the file open, and a plain umount would
            // then fail with EBUSY and leave the tmpfs mounted after the run.
            umount2(disk.path, Int32(MNT_DETACH))
            try? FileManager.default.removeItem(at: disk)
            #endif
        }
        let url = disk.appendingPathComponent("notes.json")
        let context = ModelContext(try notesContainer(url, formatting: .compact))
        context.insert(JSONNote(title: "small", body: String(repeating: "a", count: 20_000)))
        try context.save()
        let before = try Data(contentsOf: url)

        let big = JSONNote(title: "big", body: String(repeating: "b", count: 40_000))
        context.insert(big)
        let error = try #require(throws: JSONStoreError.self) { try context.save() }
        #expect(error.code == .ioFailure)
        #expect(error.message.contains("No space left on device"), "\(error.message)")
        #expect(error.message.hasSuffix("The disk is full; free some space. Then save again: the previous file is intact and nothing was saved."))
        #expect(try Data(contentsOf: url) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).sorted() == [".notes.json.lock", "notes.json"], "no temporary file is left")
        #expect(context.hasChanges)

        big.body = "fits"
        try context.save()
        #expect(try ModelContext(notesContainer(url)).fetch(FetchDescriptor<JSONNote>(sortBy: [SortDescriptor(\.title)])).map(\.title) == ["big", "small"])
    }

    @Test func temporaryFilesOfKilledWritersAreRemovedOnOpen() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("notes.json")
        let context = ModelContext(try notesContainer(url))
        context.insert(JSONNote(title: "a"))
        try context.save()
        let orphan = scratch.file(DurableFile.temporaryPrefix(of: url) + "123-456")
        try Data("[{\"half".utf8).write(to: orphan)
        let unrelated = scratch.file(".other.json.tmp-1-2")
        try Data().write(to: unrelated)
        _ = try notesContainer(url)
        #expect(scratch.contents == [".notes.json.lock", ".other.json.tmp-1-2", "notes.json"])
    }

    @Test func aMissingDirectoryIsAnIOFailureThatSaysWhatToDo() throws {
        let scratch = try ScratchDirectory()
        let url = scratch.file("absent/notes.json")
        let error = try #require(throws: JSONStoreError.self) { try notesContainer(url) }
        #expect(error.code == .ioFailure)
        #expect(error.message.hasSuffix("Make sure the directory exists and is writable."))
    }
}
