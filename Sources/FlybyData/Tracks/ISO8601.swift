/// An instant read from an ISO 8601 / RFC 3339 date-time: whole seconds since
/// 1970-01-01T00:00:00Z plus a fraction, kept apart so differences stay exact to the digit.
struct ISO8601Instant: Hashable, Sendable {
    var seconds: Int
    var fraction: Double

    /// Seconds from `other` to `self`.
    func seconds(since other: ISO8601Instant) -> Double {
        Double(seconds - other.seconds) + (fraction - other.fraction)
    }

    /// Parses `YYYY-MM-DDThh:mm:ss[.f…][Z|±hh:mm|±hhmm]` (`t` and a space are accepted for `T`,
    /// `z` for `Z`). Without a zone the time is taken as UTC (GPX 1.1 requires UTC anyway).
    /// Returns nil for anything else or an impossible date (month 13, 31 April, hour 24).
    static func parse(_ text: String) -> ISO8601Instant? {
        let u = Array(text.utf8)
        var k = 0
        func digits(_ n: Int) -> Int? {
            guard k + n <= u.count else { return nil }
            var v = 0
            for j in k..<(k + n) {
                guard u[j] >= 0x30 && u[j] <= 0x39 else { return nil }
                v = v * 10 + Int(u[j] - 0x30)
            }
            k += n
            return v
        }
        func expect(_ c: Unicode.Scalar) -> Bool {
            guard k < u.count, u[k] == UInt8(ascii: c) else { return false }
            k += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2) else {
            return nil
        }
        guard k < u.count, u[k] == UInt8(ascii: "T") || u[k] == UInt8(ascii: "t") || u[k] == UInt8(ascii: " ") else {
            return nil
        }
        k += 1
        guard let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2) else {
            return nil
        }
        var fraction = 0.0
        if k < u.count, u[k] == UInt8(ascii: ".") || u[k] == UInt8(ascii: ",") {
            k += 1
            var scale = 0.1
            let start = k
            while k < u.count, u[k] >= 0x30 && u[k] <= 0x39 {
                fraction += Double(u[k] - 0x30) * scale
                scale /= 10
                k += 1
            }
            guard k > start else { return nil }
        }
        var offset = 0
        if k < u.count {
            if u[k] == UInt8(ascii: "Z") || u[k] == UInt8(ascii: "z") {
                k += 1
            } else if u[k] == UInt8(ascii: "+") || u[k] == UInt8(ascii: "-") {
                let sign = u[k] == UInt8(ascii: "-") ? -1 : 1
                k += 1
                guard let oh = digits(2) else { return nil }
                _ = expect(":")
                guard let om = digits(2), oh <= 23, om <= 59 else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            } else {
                return nil
            }
        }
        guard k == u.count else { return nil }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        return ISO8601Instant(seconds: days * 86_400 + hour * 3600 + minute * 60 + second - offset, fraction: fraction)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date: count days in 400-year eras starting
    /// on 1 March (so the leap day ends the year), the method of H. Hinnant's
    /// "chrono-Compatible Low-Level Date Algorithms".
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400  // [0, 399]
        let monthFromMarch = month > 2 ? month - 3 : month + 9  // [0, 11]
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1  // [0, 365]
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
