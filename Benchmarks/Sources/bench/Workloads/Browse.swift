/// The data browser (issue 50): pages of a 1,000,000-row entity as StoreBrowser serves them (the
/// request through its entry point, session check, count, page query and HTML), against raw
/// SQLite running the same count and page query. Each timed phase is one page.
enum Browse {
    static let rowCount = 1_000_000
    static let pageSize = 50
    /// The page number of `deep page`, half way through the entity.
    static let deepPage = rowCount / pageSize / 2
    /// The age `filtered page` selects (about 1 user in 73).
    static let filteredAge = 40
}

protocol BrowseSubject {
    func load(_ users: [UserRow]) throws
    /// The entity's first page, in store order; how many rows it shows.
    func firstPage() throws -> Int
    /// The first page of the users of ``Browse/filteredAge``; how many rows it shows.
    func filteredPage() throws -> Int
    /// Page ``Browse/deepPage``; how many rows it shows.
    func deepPage() throws -> Int
}

extension Driver {
    /// Loads the store once (untimed), then times each page once per run.
    static func browse(runs: Int, make: (ScratchDirectory) throws -> any BrowseSubject) throws -> ChildReport {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        var report = ChildReport()
        do {
            let subject = try make(directory)
            try subject.load(UserRow.generate(Browse.rowCount))
            for _ in 0..<runs {
                try report.record(.firstPage) { try subject.firstPage() }
                try report.record(.filteredPage) { try subject.filteredPage() }
                try report.record(.deepPage) { try subject.deepPage() }
            }
        }
        return report
    }
}
