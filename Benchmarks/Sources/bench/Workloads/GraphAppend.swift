import Foundation

/// Building an object graph one related model at a time (`shelf.volumes.append(volume)`), against
/// assigning each parent's array at once, in OpenSwiftData alone: the ratio shows whether appending
/// stays linear in the length of the list. N names the shape: 1,000 parents × 20 children, or
/// 1 parent × 20,000 children.
enum GraphAppend {
    static let shapes: [Int: (parents: Int, children: Int)] = [1_000: (1_000, 20), 20_000: (1, 20_000)]
}

protocol GraphAppendSubject {
    /// Inserts the parents, assigns each its children's array at once, and saves; how many children are stored.
    func assign(parents: Int, children: Int) throws -> Int
    /// Inserts the parents, appends each child in turn to its parent's array, and saves; how many children are stored.
    func append(parents: Int, children: Int) throws -> Int
}

extension Driver {
    /// Each run builds the same graph twice, each way on a fresh store.
    static func graphAppend(size: Int, runs: Int, make: (ScratchDirectory) throws -> any GraphAppendSubject) throws -> ChildReport {
        guard let shape = GraphAppend.shapes[size] else { throw UsageError("graph-append sizes: 1000 (1,000 × 20), 20000 (1 × 20,000)") }
        var report = ChildReport()
        for _ in 0..<runs {
            for phase in [Phase.assign, .append] {
                let directory = try ScratchDirectory()
                defer { directory.remove() }
                let subject = try make(directory)
                try report.record(phase) {
                    phase == .assign ? try subject.assign(parents: shape.parents, children: shape.children)
                        : try subject.append(parents: shape.parents, children: shape.children)
                }
            }
        }
        return report
    }
}
