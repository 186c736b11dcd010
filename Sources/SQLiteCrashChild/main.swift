import Foundation
import OpenSwiftData
import TestModels

// The child process of the SQLite store's crash test (SQLiteCrashTests): saves batches of five
// models into the store at the path it is given, and after each save returns writes
// "saved <batch>" to standard output, until it is killed.

let url = URL(fileURLWithPath: CommandLine.arguments[1])
do {
    let container = try ModelContainer(for: CrashBatch.self, configurations: ModelConfiguration(url: url))
    var last = FetchDescriptor<CrashBatch>(sortBy: [SortDescriptor(\.batch, order: .reverse)])
    last.fetchLimit = 1
    var batch = (try ModelContext(container).fetch(last).first?.batch ?? 0) + 1
    for _ in 0..<100_000 {
        let context = ModelContext(container)
        for item in 0..<5 {
            context.insert(CrashBatch(batch: batch, item: item, payload: String(repeating: "\(item)", count: 300)))
        }
        try context.save()
        // An unbuffered write: once it returns, the parent can read the line even after a SIGKILL.
        FileHandle.standardOutput.write(Data("saved \(batch)\n".utf8))
        batch += 1
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
