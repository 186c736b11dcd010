/// The `keys` text of a history row holding more than one run of keys: its runs in order,
/// separated by commas, each a key (`7`) or a first and last key (`9:12`), so that the updates of
/// scattered models, or a delete with gaps, are one row. A colon, not a hyphen, since a key may
/// be negative.
extension SQLiteHistory {
    static func keysElement(_ run: ClosedRange<Int64>) -> String {
        run.lowerBound == run.upperBound ? String(run.lowerBound) : "\(run.lowerBound):\(run.upperBound)"
    }

    /// The keys a `keys` text lists, in order; nil when it is not one this store writes or lists
    /// more than `limit` keys (a row numbered N holds at most N changes, so a damaged file cannot
    /// make a read expand a run without end).
    static func keys(in text: String, atMost limit: Int64) -> [Int64]? {
        var keys: [Int64] = []
        for element in text.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = element.split(separator: ":", omittingEmptySubsequences: false)
            guard bounds.count <= 2, let first = Int64(bounds[0]), let last = bounds.count == 2 ? Int64(bounds[1]) : first,
                  let count = runLength(first, last), count <= limit - Int64(keys.count) else { return nil }
            keys.append(contentsOf: first...last)
        }
        return keys.isEmpty ? nil : keys
    }

    /// How many keys `first` through `last` are; nil when `last` is below `first` or the count
    /// does not fit.
    static func runLength(_ first: Int64, _ last: Int64) -> Int64? {
        let (span, overflow) = last.subtractingReportingOverflow(first)
        guard !overflow, span >= 0, span < .max else { return nil }
        return span + 1
    }
}
