import Domain
import Foundation
import Testing

@Suite struct NewYorkTimeTests {
    /// Foundation reads America/New_York from the tz database (tzdata on Debian, its own copy
    /// elsewhere); the app does not need it, but here it is the independent witness.
    static let foundationZone = TimeZone(identifier: "America/New_York")

    @Test func theTimeZoneDatabaseKnowsNewYork() throws {
        let zone = try #require(Self.foundationZone)
        // 2025-01-15 12:00 UTC is winter (UTC−5), 2025-07-15 12:00 UTC summer (UTC−4).
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_736_942_400)) == -18_000)
        #expect(zone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_752_580_800)) == -14_400)
    }

    /// Every third hour from 1990 to 2040 (each day's offset), and every minute of the days the clocks
    /// change (the moment they do), agree with the tz database.
    @Test func agreesWithTheTimeZoneDatabase() throws {
        let zone = try #require(Self.foundationZone)
        let start = CivilDate(1990, 1, 1).daysSince1970 * 86_400
        let end = CivilDate(2041, 1, 1).daysSince1970 * 86_400
        var mismatches: [String] = []
        for seconds in stride(from: start, to: end, by: 3 * 3_600) {
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            if NewYorkTime.offset(at: date) != zone.secondsFromGMT(for: date) { mismatches.append("\(date)") }
        }
        for year in 1990...2040 {
            for sunday in [Self.transitionSundays(year).start, Self.transitionSundays(year).end] {
                let midnight = sunday.daysSince1970 * 86_400
                for seconds in stride(from: midnight, to: midnight + 86_400, by: 60) {
                    let date = Date(timeIntervalSince1970: TimeInterval(seconds))
                    if NewYorkTime.offset(at: date) != zone.secondsFromGMT(for: date) { mismatches.append("\(date)") }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    /// The clocks change at 02:00 local: 2026-03-08 07:00 UTC starts daylight time, 2026-11-01 06:00 UTC
    /// ends it.
    @Test func changesAtTwoInTheMorning() {
        let springForward = CivilDate(2026, 3, 8).daysSince1970 * 86_400 + 7 * 3_600
        #expect(NewYorkTime.offset(at: Date(timeIntervalSince1970: TimeInterval(springForward - 1))) == -18_000)
        #expect(NewYorkTime.offset(at: Date(timeIntervalSince1970: TimeInterval(springForward))) == -14_400)
        let fallBack = CivilDate(2026, 11, 1).daysSince1970 * 86_400 + 6 * 3_600
        #expect(NewYorkTime.offset(at: Date(timeIntervalSince1970: TimeInterval(fallBack - 1))) == -14_400)
        #expect(NewYorkTime.offset(at: Date(timeIntervalSince1970: TimeInterval(fallBack))) == -18_000)
    }

    /// Wall-clock times turn into the instants the tz database gives, in winter, summer and on the
    /// Mondays after each change.
    @Test func wallClockTimesRoundTrip() throws {
        let zone = try #require(Self.foundationZone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        for day in [CivilDate(2026, 1, 5), CivilDate(2026, 3, 9), CivilDate(2026, 7, 6), CivilDate(2026, 11, 2), CivilDate(2026, 3, 8)] {
            for minute in [4 * 60, 9 * 60 + 30, 13 * 60, 16 * 60, 20 * 60] {
                let ours = NewYorkTime.date(on: day, minuteOfDay: minute)
                let theirs = try #require(calendar.date(from: DateComponents(
                    year: day.year, month: day.month, day: day.day, hour: minute / 60, minute: minute % 60)))
                #expect(ours == theirs, "\(day) \(minute)")
                let clock = NewYorkTime.wallClock(at: ours)
                #expect(clock.day == day && clock.secondOfDay == minute * 60, "\(day) \(minute)")
            }
        }
    }

    private static func transitionSundays(_ year: Int) -> (start: CivilDate, end: CivilDate) {
        year >= 2007
            ? (CivilDate.nth(2, .sunday, of: 3, in: year), CivilDate.nth(1, .sunday, of: 11, in: year))
            : (CivilDate.nth(1, .sunday, of: 4, in: year), CivilDate.last(.sunday, of: 10, in: year))
    }
}
