import Foundation

/// Model inheritance (issue 28), in OpenSwiftData alone: N models of a three-class hierarchy
/// (a base class and two subclasses, a third of the models each) fetched through the base class,
/// against N flat models holding the same attributes, each fetch into a new context.
enum HierarchyBench {
    /// The hierarchy fetch's ratio to the flat fetch that it should stay under.
    static let target = 1.2
}

protocol HierarchyFetchSubject {
    /// Writes N flat models and N models of the hierarchy (untimed).
    func load(_ count: Int) throws
    /// Every flat model, into objects; a checksum of what was read.
    func fetchFlat() throws -> Int
    /// Every model of the hierarchy through its base class, into objects of their classes; the same checksum.
    func fetchHierarchy() throws -> Int
}

extension Driver {
    static func hierarchyFetch(size: Int, runs: Int, make: (ScratchDirectory) throws -> any HierarchyFetchSubject) throws -> ChildReport {
        let directory = try ScratchDirectory()
        defer { directory.remove() }
        let subject = try make(directory)
        try subject.load(size)
        var report = ChildReport()
        for _ in 0..<runs {
            try report.record(.fetchFlat) { try subject.fetchFlat() }
            try report.record(.fetchHierarchy) { try subject.fetchHierarchy() }
        }
        return report
    }
}
