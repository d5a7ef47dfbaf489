import Foundation

/// Wall-clock time in New York (America/New_York), where US equity markets keep their hours, computed
/// from the US daylight saving rules rather than read from tzdata: the header asks on every frame, and
/// a few integer operations cost far less than building a `Calendar`. `NewYorkTimeTests` checks it
/// against Foundation's `TimeZone(identifier: "America/New_York")` over 1990–2040, to the minute on the
/// days the clocks change.
///
/// The rules (15 U.S.C. § 260a): from 2007, daylight time (UTC−4) from the second Sunday of March at
/// 02:00 standard time to the first Sunday of November at 02:00 daylight time, standard time (UTC−5)
/// otherwise; 1987–2006, from the first Sunday of April to the last Sunday of October. Years before 1987
/// are given the 1987 rule, which is wrong for some of them; nothing here looks that far back.
public enum NewYorkTime {
    static let standardOffset = -5 * 3_600
    static let daylightOffset = -4 * 3_600

    /// Seconds east of UTC at `date`: −18000 in winter, −14400 in summer.
    public static func offset(at date: Date) -> Int {
        offset(atUnixSeconds: unixSeconds(date))
    }

    static func offset(atUnixSeconds seconds: Int) -> Int {
        let year = CivilDate(daysSince1970: floorDivide(seconds, 86_400)).year
        let (start, end) = daylightSavingDays(in: year)
        // 02:00 local, in standard time at the start (07:00 UTC) and in daylight time at the end (06:00 UTC).
        let startsAt = start.daysSince1970 * 86_400 + 2 * 3_600 - standardOffset
        let endsAt = end.daysSince1970 * 86_400 + 2 * 3_600 - daylightOffset
        return seconds >= startsAt && seconds < endsAt ? daylightOffset : standardOffset
    }

    /// The Sundays daylight saving time starts and ends in `year`.
    static func daylightSavingDays(in year: Int) -> (start: CivilDate, end: CivilDate) {
        if year >= 2007 {
            return (CivilDate.nth(2, .sunday, of: 3, in: year), CivilDate.nth(1, .sunday, of: 11, in: year))
        }
        return (CivilDate.nth(1, .sunday, of: 4, in: year), CivilDate.last(.sunday, of: 10, in: year))
    }

    /// The New York day `date` falls on and how many seconds of it have passed.
    public static func wallClock(at date: Date) -> (day: CivilDate, secondOfDay: Int) {
        let local = unixSeconds(date) + offset(at: date)
        let days = floorDivide(local, 86_400)
        return (CivilDate(daysSince1970: days), local - days * 86_400)
    }

    /// The instant New York's clocks show `minuteOfDay` minutes after midnight on `day`. For the times
    /// markets use (04:00 to 20:00) there is exactly one. The clocks change at 02:00: the hour shown twice
    /// when daylight time ends (01:00–01:59) gives its second, standard-time instant, and the hour never
    /// shown when it starts (02:00–02:59) gives the instant an hour earlier on the clock.
    public static func date(on day: CivilDate, minuteOfDay: Int) -> Date {
        let local = day.daysSince1970 * 86_400 + minuteOfDay * 60
        let offset = offset(atUnixSeconds: local - standardOffset)
        return Date(timeIntervalSince1970: TimeInterval(local - offset))
    }

    private static func unixSeconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down))
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
