/// Schema migrations (issue 25), each run on a fresh store of N items written at version 1
/// (untimed): `migrate-add` adds an attribute with a default to 1,000,000 items (a lightweight
/// stage); `migrate-custom` runs a custom stage whose `didMigrate` rewrites one attribute of
/// 100,000 items. Raw SQLite is the same change written by hand in SQL, in one transaction.
enum Migrate {
    static let addedRows = 1_000_000
    static let rewrittenRows = 100_000
}

protocol MigrateSubject {
    /// Writes `count` version 1 items (title "item i", price i).
    func seed(count: Int) throws
    /// Adds `tag`, default "none", to every item; how many items have it.
    func addAttribute() throws -> Int
    /// Upper-cases every item's title; how many items were rewritten.
    func rewriteTitles() throws -> Int
}

extension Driver {
    static func migrate(_ workload: Workload, size: Int, runs: Int, make: (ScratchDirectory) throws -> any MigrateSubject) throws -> ChildReport {
        var report = ChildReport()
        for _ in 0..<runs {
            let directory = try ScratchDirectory()
            defer { directory.remove() }
            let subject = try make(directory)
            try subject.seed(count: size)
            if workload == .migrateAdd {
                try report.record(.addAttribute) { try subject.addAttribute() }
            } else {
                try report.record(.customStage) { try subject.rewriteTitles() }
            }
        }
        return report
    }
}
