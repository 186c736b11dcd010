import ArgumentParser

/// What `--budget` accepts: an amount of money, so a finite number, not negative. `nan`, `inf`
/// and `1e309` (which reads as infinity) parse as numbers, so they are refused here, by name.
enum BudgetValidation {
    static func check(_ budget: Double) throws {
        guard budget.isFinite else {
            throw ValidationError("--budget must be an amount such as 1200 or 99.50 (got \(budget), which is not a finite number).")
        }
        guard budget >= 0 else { throw ValidationError("--budget must not be negative (got \(budget)).") }
    }
}
