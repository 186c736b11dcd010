/// The migrations by hand: `ALTER TABLE … ADD COLUMN` with a default, and one `UPDATE`.
final class RawMigrate: MigrateSubject {
    private let connection: RawConnection

    init(_ directory: ScratchDirectory) throws {
        connection = try RawConnection(path: directory.file("raw.store").path)
    }

    func seed(count: Int) throws {
        try connection.execute(#"CREATE TABLE "BenchItem" ("pk" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT NOT NULL, "price" REAL NOT NULL)"#)
        let insert = try connection.prepare(#"INSERT INTO "BenchItem" ("title", "price") VALUES (?, ?)"#)
        try connection.transaction {
            for index in 0..<count {
                insert.bind(1, "item \(index)")
                insert.bind(2, Double(index))
                try insert.run()
            }
        }
    }

    func addAttribute() throws -> Int {
        try connection.transaction {
            try connection.execute(#"ALTER TABLE "BenchItem" ADD COLUMN "tag" TEXT NOT NULL DEFAULT 'none'"#)
            let count = try connection.prepare(#"SELECT COUNT(*) FROM "BenchItem" WHERE "tag" = 'none'"#)
            _ = try count.step()
            defer { count.reset() }
            return count.int(0)
        }
    }

    func rewriteTitles() throws -> Int {
        try connection.transaction {
            try connection.execute(#"UPDATE "BenchItem" SET "title" = upper("title")"#)
            return connection.changes
        }
    }
}
