/// The `keys` text of a history row holding more than one run of keys: its runs in order,
/// separated by commas, each a key (`7`) or a first and last key (`9:12`), so that the updates of
/// scattered models, or a delete with gaps, are one row. A colon, not a hyphen, since a key may
/// be negative.
extension SQLiteHistory {
    static func keysElement(_ run: ClosedRange<Int64>) -> String {
        run.lowerBound == run.upperBound ? String(run.lowerBound) : "\(run.lowerBound):\(run.upperBound)"
    }

    /// The keys a `keys` text lists, in order; nil when it is not one this store writes.
    static func keys(in text: String) -> [Int64]? {
        var keys: [Int64] = []
        for element in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = element.split(separator: ":", omittingEmptySubsequences: false)
            guard bounds.count <= 2, let first = Int64(bounds[0]), let last = bounds.count == 2 ? Int64(bounds[1]) : first,
                  first <= last else { return nil }
            keys.append(contentsOf: first...last)
        }
        return keys
    }
}
