import Domain
import Foundation

/// When the market the paper broker imitates is open, and when a day order's session closes: a pure
/// value, asked with a time the caller's clock gives.
///
/// `usRegularHours` is the NYSE and Nasdaq regular session, 09:30–16:00 America/New_York, on the days
/// the exchange's calendar (`NYSECalendar`, Domain) opens: no session on its holidays and one-off
/// closures, 13:00 closes on its early-close days, daylight saving time included. No pre- or after-hours
/// trading.
///
/// `aroundTheClock` is open every minute of every day, with day orders expiring at midnight New York
/// time: for a demo or a test that must not depend on the hour it runs at.
public struct MarketSession: Sendable, Hashable {
    /// Where the session's hours are counted.
    public let timeZone: TimeZone
    /// Minutes after local midnight the session opens (570 for 09:30) and closes (960 for 16:00; 1440
    /// closes at the next midnight).
    public let opensAtMinute: Int
    public let closesAtMinute: Int
    /// Trading days as `Calendar` weekdays (1 is Sunday, 2 Monday, … 7 Saturday).
    public let tradingWeekdays: Set<Int>
    /// When set, its trading days and their hours replace the weekdays and minutes above (which then
    /// only describe an ordinary day).
    public let exchangeCalendar: NYSECalendar?

    public init(timeZone: TimeZone, opensAtMinute: Int, closesAtMinute: Int, tradingWeekdays: Set<Int>, exchangeCalendar: NYSECalendar? = nil) {
        precondition(0 <= opensAtMinute && opensAtMinute < closesAtMinute && closesAtMinute <= 1_440,
                     "a session opens before it closes, within one day")
        precondition(!tradingWeekdays.isEmpty && tradingWeekdays.isSubset(of: 1...7), "weekdays are 1…7, at least one")
        self.timeZone = timeZone
        self.opensAtMinute = opensAtMinute
        self.closesAtMinute = closesAtMinute
        self.tradingWeekdays = tradingWeekdays
        self.exchangeCalendar = exchangeCalendar
    }

    /// New York's zone. Foundation carries its own copy of the time-zone rules, so this is found even on
    /// a system without tzdata; the fixed offset is only a last resort (it is wrong by an hour in summer).
    static let newYork = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3_600)!

    /// 09:30–16:00 New York time on the NYSE's trading days (13:00 on its early closes).
    public static let usRegularHours = MarketSession(
        timeZone: newYork, opensAtMinute: 9 * 60 + 30, closesAtMinute: 16 * 60, tradingWeekdays: Set(2...6),
        exchangeCalendar: .standard)

    /// Always open; day orders expire at midnight New York time.
    public static let aroundTheClock = MarketSession(
        timeZone: newYork, opensAtMinute: 0, closesAtMinute: 1_440, tradingWeekdays: Set(1...7))

    /// True when `date` falls in a session: a trading day, at or after the open and before the close.
    public func isOpen(at date: Date) -> Bool {
        if let exchangeCalendar {
            guard let session = exchangeCalendar.tradingDay(on: NewYorkTime.wallClock(at: date).day) else { return false }
            return date >= session.opens && date < session.closes
        }
        let calendar = calendar
        let day = calendar.startOfDay(for: date)
        guard tradingWeekdays.contains(calendar.component(.weekday, from: day)) else { return false }
        return date >= time(minute: opensAtMinute, on: day, calendar) && date < time(minute: closesAtMinute, on: day, calendar)
    }

    /// The close of the session an order placed at `date` belongs to: today's close when `date` is on a
    /// trading day before its close, else the close of the next trading day. A day order expires then.
    public func close(ofSessionAt date: Date) -> Date {
        if let exchangeCalendar {
            let today = NewYorkTime.wallClock(at: date).day
            // The exchange's longest closure was four weekdays (September 2001): three weeks is ample.
            for offset in 0..<21 {
                if let session = exchangeCalendar.tradingDay(on: today.adding(days: offset)), date < session.closes {
                    return session.closes
                }
            }
            preconditionFailure("no trading day within three weeks of \(today) in the exchange calendar")
        }
        let calendar = calendar
        var day = calendar.startOfDay(for: date)
        // At most a week ahead: every week has a trading day.
        for _ in 0..<8 {
            if tradingWeekdays.contains(calendar.component(.weekday, from: day)) {
                let close = time(minute: closesAtMinute, on: day, calendar)
                if date < close { return close }
            }
            day = nextDay(after: day, calendar)
        }
        preconditionFailure("no trading day within a week; the initializer requires one")
    }

    // MARK: Private

    private var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// `minute` minutes after local midnight of `day` in wall-clock terms, so 16:00 is 16:00 on the days
    /// daylight saving time starts or ends too; 1440 is the next day's midnight.
    private func time(minute: Int, on day: Date, _ calendar: Calendar) -> Date {
        if minute == 1_440 { return nextDay(after: day, calendar) }
        return calendar.date(bySettingHour: minute / 60, minute: minute % 60, second: 0, of: day) ?? day
    }

    private func nextDay(after day: Date, _ calendar: Calendar) -> Date {
        // Noon of `day` plus a day never lands on a missing or doubled hour; then back to its midnight.
        let noon = calendar.date(bySettingHour: 12, minute: 0, second: 0, of: day) ?? day
        return calendar.startOfDay(for: noon.addingTimeInterval(86_400))
    }
}
