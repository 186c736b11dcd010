import Foundation

/// Opening is a new connection (WAL mode, as the default store opens it) and a `COUNT(*)`;
/// saving one change is one `UPDATE` by primary key in its own transaction.
final class RawReopen: ReopenSubject {
    private let directory: ScratchDirectory
    private var path: String { directory.file("raw.sqlite").path }
    private var db: RawConnection?
    private var update: RawStatement?
    private var pickedKey = 0

    init(_ directory: ScratchDirectory) throws {
        self.directory = directory
    }

    func create(_ users: [UserRow]) throws {
        _ = try RawUsers(directory, unique: false).insert(users)
    }

    func load() throws -> Int {
        update = nil
        db = nil
        let db = try RawConnection(path: path)
        self.db = db
        update = try db.prepare("UPDATE user SET age = ? WHERE pk = ?")
        let count = try db.prepare("SELECT COUNT(*) FROM user")
        _ = try count.step()
        return count.int(0)
    }

    func pick(_ id: UUID) throws {
        let find = try db!.prepare("SELECT pk FROM user WHERE id = ?")
        find.bind(1, id.uuidString)
        _ = try find.step()
        pickedKey = find.int(0)
    }

    func saveOne(age: Int) throws -> Int {
        try db!.transaction {
            update!.bind(1, age)
            update!.bind(2, pickedKey)
            try update!.run()
            return db!.changes
        }
    }
}
