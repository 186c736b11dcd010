extension Duration {
    /// The duration in whole nanoseconds, as the Dispatch and NIO deadlines the server and the
    /// client set take them; durations too long for that saturate instead of trapping.
    package var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (total, overflowTotal) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflowTotal { return seconds < 0 ? .min : .max }
        return total
    }
}
