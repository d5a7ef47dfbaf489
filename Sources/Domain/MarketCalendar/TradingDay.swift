import Foundation

/// One day the US equity market opens, with the instants its phases change (New York's wall clock
/// turned into instants, daylight saving time included).
public struct TradingDay: Sendable, Hashable {
    public let date: CivilDate
    /// 04:00: pre-market trading starts.
    public let preMarketOpens: Date
    /// 09:30: the regular session opens.
    public let opens: Date
    /// 16:00, or 13:00 on an early-close day: the regular session closes and after-hours trading starts.
    public let closes: Date
    /// 20:00, or 17:00 on an early-close day: after-hours trading ends.
    public let afterHoursEnds: Date
    public let isEarlyClose: Bool

    static let preMarketMinute = 4 * 60
    static let openMinute = 9 * 60 + 30
    static let closeMinute = 16 * 60
    static let earlyCloseMinute = 13 * 60
    /// After hours lasts four hours after a full day's close, and four after an early close: NYSE Arca's
    /// late trading session ends at 17:00 on those days.
    static let afterHoursMinutes = 4 * 60

    init(date: CivilDate, isEarlyClose: Bool) {
        self.date = date
        self.isEarlyClose = isEarlyClose
        let close = isEarlyClose ? Self.earlyCloseMinute : Self.closeMinute
        preMarketOpens = NewYorkTime.date(on: date, minuteOfDay: Self.preMarketMinute)
        opens = NewYorkTime.date(on: date, minuteOfDay: Self.openMinute)
        closes = NewYorkTime.date(on: date, minuteOfDay: close)
        afterHoursEnds = NewYorkTime.date(on: date, minuteOfDay: close + Self.afterHoursMinutes)
    }
}
