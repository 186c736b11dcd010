import Foundation

/// Store files a test hands out inside a container that outlives its own scope (the container is
/// the test's result), so no scope of the test can remove them: they go in one directory per test
/// process, removed when the process exits. Left in the temporary directory, every run of the
/// suite added a few hundred files there.
enum ScratchFiles {
    private static let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("osd-tests-\(UUID().uuidString)", isDirectory: true)
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: ScratchFiles.directory) }
        return url
    }()

    /// A new file's URL, `<prefix>-<UUID>.store`, in the process's directory.
    static func store(_ prefix: String) -> URL {
        directory.appendingPathComponent("\(prefix)-\(UUID().uuidString).store")
    }
}
