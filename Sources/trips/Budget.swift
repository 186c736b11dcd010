import ArgumentParser

/// What `--budget` takes: an amount of money written in decimal, such as 1200 or 99.50 (digits,
/// then at most two after a point), not negative, at most a trillion. It is read as text and
/// turned into whole cents exactly: parsing it as a `Double` would take `0x10` as 16, `1e3` as
/// 1000, `nan` and `inf` as numbers, and round 0.005 one way or the other.
struct Budget: ExpressibleByArgument, CustomStringConvertible {
    /// The largest budget accepted, in whole currency units: far inside `Int`'s cents.
    static let largest = 1_000_000_000_000

    /// As given on the command line; ``cents()`` checks it.
    let text: String

    init(argument: String) { text = argument }

    var description: String { text }

    /// The budget in whole cents, or the error that says what `--budget` takes.
    func cents() throws -> Int {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let units = parts[0], fraction = parts.count == 2 ? parts[1] : ""
        guard !units.isEmpty, units.allSatisfy(\.isASCIIDigit), fraction.allSatisfy(\.isASCIIDigit),
              parts.count == 1 || !fraction.isEmpty else {
            throw ValidationError("--budget must be an amount written in decimal, such as 1200 or 99.50 (got '\(text)'\(Self.why(text))).")
        }
        guard !negative else { throw ValidationError("--budget must not be negative (got \(text)).") }
        guard fraction.count <= 2 else {
            throw ValidationError("--budget takes at most two digits after the point, for cents (got \(text)).")
        }
        let whole = units.drop { $0 == "0" }
        let cents = whole.count <= 13 ? Int(whole.isEmpty ? "0" : whole).map { $0 * 100 + Int(fraction.padding(toLength: 2, withPad: "0", startingAt: 0))! } : nil
        guard let cents, cents <= Self.largest * 100 else {
            throw ValidationError("--budget must be at most \(Self.largest) (got \(text)).")
        }
        return cents
    }

    /// Why a word Swift reads as a number is no amount.
    private static func why(_ text: String) -> String {
        let word = text.lowercased().trimmingPrefix { $0 == "-" || $0 == "+" }
        return ["nan", "inf", "infinity"].contains(String(word)) ? ", which is not a finite number" : ""
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
