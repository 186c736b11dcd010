import ArgumentParser

/// What `--budget` accepts: an amount of money, so a finite number, not negative, and small
/// enough to keep in whole cents. `nan`, `inf` and `1e309` (which reads as infinity) parse as
/// numbers, so they are refused here, by name.
enum BudgetValidation {
    /// The largest budget accepted: a trillion currency units, far inside `Int`'s cents.
    static let largest = 1_000_000_000_000.0

    static func check(_ budget: Double) throws {
        guard budget.isFinite else {
            throw ValidationError("--budget must be an amount such as 1200 or 99.50 (got \(budget), which is not a finite number).")
        }
        guard budget >= 0 else { throw ValidationError("--budget must not be negative (got \(budget)).") }
        guard budget <= largest else { throw ValidationError("--budget must be at most 1000000000000 (got \(budget)).") }
    }

    /// A checked budget in whole cents, rounded to the nearest.
    static func cents(_ budget: Double) -> Int {
        Int((budget * 100).rounded())
    }
}
