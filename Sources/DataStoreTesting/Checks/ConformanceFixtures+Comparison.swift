import Testing

extension ConformanceFixtures {
    /// Expects the items read back to hold the values of the items saved, item by item, and
    /// reports only the values that differ (`small=4: date=757382400.1234567, stored 757382400.0`),
    /// so a failing check, or a known issue of a store's own tests, prints a few lines rather than
    /// both lists whole.
    static func expectSameValues(_ fetched: [ConformanceItem], as saved: [ConformanceItem],
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        guard fetched.count == saved.count else {
            Issue.record("\(fetched.count) items read back where \(saved.count) were saved", sourceLocation: sourceLocation)
            return
        }
        var differences: [String] = []
        for (read, expected) in zip(fetched, saved) {
            for (value, expectedValue) in zip(values(of: read), values(of: expected)) where value != expectedValue {
                differences.append("small=\(expected.small): \(expectedValue), stored \(value.split(separator: "=", maxSplits: 1).last ?? "")")
            }
        }
        guard !differences.isEmpty else { return }
        let shown = differences.prefix(3).joined(separator: "; ")
        let more = differences.count > 3 ? " (and \(differences.count - 3) more)" : ""
        Issue.record("\(differences.count) stored values differ from those saved: \(shown)\(more)", sourceLocation: sourceLocation)
    }
}
