import Foundation
import GRDB

/// Opening is a new `DatabaseQueue` and a count; saving one change is `updateChanges` on a
/// fetched record, in one write transaction.
final class GRDBReopen<User: GRDBUser>: ReopenSubject {
    private let directory: ScratchDirectory
    private var queue: DatabaseQueue?
    private var picked: User?

    init(_ directory: ScratchDirectory) throws {
        self.directory = directory
    }

    func create(_ users: [UserRow]) throws {
        _ = try GRDBUsers<User>(directory, unique: false).insert(users)
    }

    func load() throws -> Int {
        picked = nil
        queue = nil
        let queue = try DatabaseQueue(path: directory.file("grdb.sqlite").path)
        self.queue = queue
        return try queue.read { db in try User.fetchCount(db) }
    }

    func pick(_ id: UUID) throws {
        picked = try queue!.read { db in try User.filter(Column("id") == id.uuidString).fetchOne(db) }
    }

    func saveOne(age: Int) throws -> Int {
        try queue!.write { db in try picked!.updateChanges(db) { $0.age = age } ? 1 : 0 }
    }
}
