import ArgumentParser
import Foundation

/// A calendar day given on the command line as YYYY-MM-DD (the start of that day, UTC).
struct TripDate: ExpressibleByArgument, Comparable {
    let date: Date

    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              parts[0].count == 4, (1...12).contains(month), (1...31).contains(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components),
              calendar.dateComponents([.year, .month, .day], from: date) == components else { return nil }
        self.date = date
    }

    static func < (lhs: TripDate, rhs: TripDate) -> Bool { lhs.date < rhs.date }
}

extension TripDate {
    /// Shown in errors: what a valid date looks like.
    static let expected = "a date written YYYY-MM-DD, e.g. 2026-05-01"
}

/// Dates as the user's locale writes them, in UTC like the stored days. Foundation on Linux does
/// not read the POSIX locale variables, so they are read here (LC_ALL, then LC_TIME, then LANG);
/// the C/POSIX locale gets ISO 8601 days, the form the command line takes.
enum DateDisplay {
    static let formatter: DateFormatter = {
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if let locale = userLocale() {
            formatter.locale = locale
            formatter.dateStyle = .medium
            formatter.timeStyle = .none
        } else {
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.dateFormat = "yyyy-MM-dd"
        }
        return formatter
    }()

    static func string(_ date: Date) -> String { formatter.string(from: date) }

    /// `de_DE.UTF-8` → `de_DE`; `nil` for the C/POSIX locale.
    private static func userLocale() -> Locale? {
        let environment = ProcessInfo.processInfo.environment
        guard let setting = ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else {
            return Locale.current
        }
        let identifier = setting.split(separator: ".").first.map(String.init) ?? setting
        return identifier == "C" || identifier == "POSIX" ? nil : Locale(identifier: identifier)
    }
}
