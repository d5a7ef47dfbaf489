/// A day on the calendar, with no time and no zone: what an exchange's holiday list is made of.
///
/// Converted to and from a count of days since 1970-01-01 with Howard Hinnant's `days_from_civil` and
/// `civil_from_days` (proleptic Gregorian, integers only), so finding a day's weekday or the third Monday of
/// a month needs no `Calendar`, which costs more to build than a frame costs to draw.
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    /// 1…12.
    public let month: Int
    /// 1…31.
    public let day: Int

    /// `month` and `day` must name a real day of `year` (February 29 only in a leap year).
    public init(_ year: Int, _ month: Int, _ day: Int) {
        precondition((1...12).contains(month) && (1...Self.days(inMonth: month, of: year)).contains(day),
                     "\(year)-\(month)-\(day) is not a day of the Gregorian calendar")
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `daysSince1970` days after 1970-01-01 (negative before it).
    public init(daysSince1970: Int) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // March is 0
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days since 1970-01-01.
    public var daysSince1970: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public var weekday: Weekday {
        // 1970-01-01 was a Thursday.
        Weekday(rawValue: ((daysSince1970 + 4) % 7 + 7) % 7)!
    }

    public func adding(days: Int) -> CivilDate {
        CivilDate(daysSince1970: daysSince1970 + days)
    }

    /// The `ordinal`-th (1-based) `weekday` of `month`: the third Monday of January is MLK Day.
    public static func nth(_ ordinal: Int, _ weekday: Weekday, of month: Int, in year: Int) -> CivilDate {
        let first = CivilDate(year, month, 1)
        let offset = (weekday.rawValue - first.weekday.rawValue + 7) % 7
        return first.adding(days: offset + 7 * (ordinal - 1))
    }

    /// The last `weekday` of `month`: the last Monday of May is Memorial Day.
    public static func last(_ weekday: Weekday, of month: Int, in year: Int) -> CivilDate {
        let last = CivilDate(year, month, days(inMonth: month, of: year))
        return last.adding(days: -((last.weekday.rawValue - weekday.rawValue + 7) % 7))
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    public static func days(inMonth month: Int, of year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// "2025-01-09".
    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// Sunday is 0, as in C's `tm_wday`.
    public enum Weekday: Int, Sendable, Hashable, CaseIterable {
        case sunday, monday, tuesday, wednesday, thursday, friday, saturday

        public var isWeekend: Bool { self == .saturday || self == .sunday }

        /// "Mon".
        public var abbreviation: String {
            switch self {
            case .sunday: "Sun"
            case .monday: "Mon"
            case .tuesday: "Tue"
            case .wednesday: "Wed"
            case .thursday: "Thu"
            case .friday: "Fri"
            case .saturday: "Sat"
            }
        }
    }
}
