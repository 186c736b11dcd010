import Foundation

/// ISO 8601 text for whole seconds in UTC, the form Foundation's `.iso8601` coding strategy
/// writes: `2024-05-01T09:30:00Z`. Written by hand because Foundation's formatters dominated the
/// time to load a large file. Foundation's calendar is Julian before 15 October 1582, so earlier
/// dates (and years past 9999) are left to Foundation: both return nil for them.
enum ISO8601Text {
    /// 1582-10-15T00:00:00Z plus a day, so that no time zone offset reaches the Julian dates.
    private static let firstGregorianSecond: Int64 = -12_219_292_800 + 86_400
    /// `yyyy-MM-ddTHH:mm:ssZ` for a whole number of seconds since 1970, proleptic Gregorian.
    static func string(secondsSince1970 seconds: Int64) -> String? {
        guard seconds >= firstGregorianSecond else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        guard year <= 9999 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        func append(_ value: Int64, digits: Int) {
            var divisor: Int64 = 1
            for _ in 1..<digits { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        append(year, digits: 4); bytes.append(UInt8(ascii: "-"))
        append(month, digits: 2); bytes.append(UInt8(ascii: "-"))
        append(day, digits: 2); bytes.append(UInt8(ascii: "T"))
        append(secondOfDay / 3600, digits: 2); bytes.append(UInt8(ascii: ":"))
        append(secondOfDay / 60 % 60, digits: 2); bytes.append(UInt8(ascii: ":"))
        append(secondOfDay % 60, digits: 2); bytes.append(UInt8(ascii: "Z"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Seconds since 1970 of `yyyy-MM-ddTHH:mm:ss` followed by `Z` or `±HH:mm`; nil for any other form.
    static func secondsSince1970(_ text: Substring) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var offset: Int64 = 0
        switch bytes[19] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            guard bytes.count == 20 else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard bytes.count == 25, bytes[22] == UInt8(ascii: ":"), let hours = number(20..<22), let minutes = number(23..<25) else { return nil }
            offset = (hours * 60 + minutes) * 60 * (bytes[19] == UInt8(ascii: "-") ? -1 : 1)
        default:
            return nil
        }
        let seconds = days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return seconds >= firstGregorianSecond ? seconds : nil
    }

    // Howard Hinnant's days_from_civil / civil_from_days (public domain), proleptic Gregorian.
    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
