import Foundation

/// The New York Stock Exchange's trading days for any year, from its rules (NYSE Rule 7.2 and the
/// holiday schedule it publishes each year), with no network: weekends and holidays closed, early closes
/// at 13:00, and the pre-market and after-hours phases around each session (`MarketPhase`).
///
/// Holidays, each observed on the Friday before when it falls on a Saturday and the Monday after when on
/// a Sunday: New Year's Day, Martin Luther King Jr. Day (third Monday of January), Washington's Birthday
/// (third Monday of February), Good Friday (two days before Easter, Gregorian computus), Memorial Day
/// (last Monday of May), Juneteenth (June 19, from 2022), Independence Day (July 4), Labor Day (first
/// Monday of September), Thanksgiving (fourth Thursday of November) and Christmas Day. One exception
/// (Rule 7.2): a New Year's Day on a Saturday is not observed, because the Friday before ends the year's
/// accounting period, so the exchange trades on December 31 and on no other day for it.
///
/// Early closes at 13:00: July 3 when it is Monday to Thursday (when it is a Friday it is the observed
/// Independence Day), the Friday after Thanksgiving, and December 24 when it is Monday to Thursday (when
/// a Friday, the observed Christmas). An early close that lands on a closure does not happen.
///
/// Today's rules for every year: the calendar does not know the exchange's history (MLK Day before 1998,
/// Saturday trading before 1952). One-off closures cannot be computed by rule: `knownSpecialClosures`
/// lists the ones announced so far, and a new one must be added there when the exchange announces it.
public struct NYSECalendar: Sendable, Hashable {
    /// Closures the exchange announced, by day.
    public var specialClosures: [CivilDate: String]

    public init(specialClosures: [CivilDate: String] = NYSECalendar.knownSpecialClosures) {
        self.specialClosures = specialClosures
    }

    public static let standard = NYSECalendar()

    /// The one-off full-day closures from 2001, as the exchange announced them.
    public static let knownSpecialClosures: [CivilDate: String] = [
        CivilDate(2001, 9, 11): "September 11 attacks",
        CivilDate(2001, 9, 12): "September 11 attacks",
        CivilDate(2001, 9, 13): "September 11 attacks",
        CivilDate(2001, 9, 14): "September 11 attacks",
        CivilDate(2004, 6, 11): "National Day of Mourning for President Ronald Reagan",
        CivilDate(2007, 1, 2): "National Day of Mourning for President Gerald Ford",
        CivilDate(2012, 10, 29): "Hurricane Sandy",
        CivilDate(2012, 10, 30): "Hurricane Sandy",
        CivilDate(2018, 12, 5): "National Day of Mourning for President George H. W. Bush",
        CivilDate(2025, 1, 9): "National Day of Mourning for President Jimmy Carter",
    ]

    // MARK: Days

    /// The weekdays of `year` the exchange is closed, in order: the holidays where they are observed and
    /// the special closures.
    public func closures(in year: Int) -> [MarketClosure] {
        Self.days(of: year).compactMap(closure(on:))
    }

    /// The days of `year` the regular session closes at 13:00.
    public func earlyCloses(in year: Int) -> [CivilDate] {
        Self.days(of: year).filter { tradingDay(on: $0)?.isEarlyClose == true }
    }

    /// Why the exchange is closed on `date`, a weekday; nil when it opens (and for weekends, which need
    /// no reason).
    public func closure(on date: CivilDate) -> MarketClosure? {
        guard !date.weekday.isWeekend else { return nil }
        if let name = specialClosures[date] { return MarketClosure(date: date, name: name, isSpecial: true) }
        return Self.holiday(on: date).map { MarketClosure(date: date, name: $0) }
    }

    /// The session on `date`, or nil when the exchange does not open that day.
    public func tradingDay(on date: CivilDate) -> TradingDay? {
        guard !date.weekday.isWeekend, specialClosures[date] == nil, Self.holiday(on: date) == nil else { return nil }
        return TradingDay(date: date, isEarlyClose: Self.isEarlyClose(date))
    }

    // MARK: The market at an instant

    /// The phase at `date`, since when, and what comes next.
    public func state(at date: Date) -> MarketState {
        let today = NewYorkTime.wallClock(at: date).day
        guard let session = tradingDay(on: today) else {
            let previous = tradingDay(before: today)
            let next = tradingDay(after: today)
            return MarketState(phase: .closed, since: previous.afterHoursEnds, nextChange: next.preMarketOpens, nextPhase: .preMarket,
                               nextOpen: next.opens, lastSession: previous)
        }
        if date < session.preMarketOpens {
            let previous = tradingDay(before: today)
            return MarketState(phase: .closed, since: previous.afterHoursEnds, nextChange: session.preMarketOpens, nextPhase: .preMarket,
                               nextOpen: session.opens, lastSession: previous)
        }
        if date < session.opens {
            return MarketState(phase: .preMarket, since: session.preMarketOpens, nextChange: session.opens, nextPhase: .open,
                               nextOpen: session.opens, lastSession: session)
        }
        let next = tradingDay(after: today)
        if date < session.closes {
            return MarketState(phase: .open, since: session.opens, nextChange: session.closes, nextPhase: .afterHours,
                               nextOpen: next.opens, lastSession: session)
        }
        if date < session.afterHoursEnds {
            return MarketState(phase: .afterHours, since: session.closes, nextChange: session.afterHoursEnds, nextPhase: .closed,
                               nextOpen: next.opens, lastSession: session)
        }
        return MarketState(phase: .closed, since: session.afterHoursEnds, nextChange: next.preMarketOpens, nextPhase: .preMarket,
                           nextOpen: next.opens, lastSession: session)
    }

    /// The exchange's longest closure since its Saturday sessions ended was four weekdays (September
    /// 2001); a year is far beyond any table of special closures.
    private static let searchLimit = 366

    private func tradingDay(after date: CivilDate) -> TradingDay {
        for offset in 1...Self.searchLimit {
            if let day = tradingDay(on: date.adding(days: offset)) { return day }
        }
        preconditionFailure("no trading day within a year after \(date): the special closures close a whole year")
    }

    private func tradingDay(before date: CivilDate) -> TradingDay {
        for offset in 1...Self.searchLimit {
            if let day = tradingDay(on: date.adding(days: -offset)) { return day }
        }
        preconditionFailure("no trading day within a year before \(date): the special closures close a whole year")
    }

    // MARK: Rules
    //
    // Asked about one day at a time, by its month, with no arrays and no calendar: the header asks on
    // every frame.

    /// The name of the holiday observed on `date`, a weekday, or nil. Every observed day falls in its
    /// holiday's own month (June 18 or 20, July 3 or 5, December 24 or 26, January 2; a Saturday New
    /// Year's Day is not observed), so the month says which rules to try.
    static func holiday(on date: CivilDate) -> String? {
        let year = date.year
        switch date.month {
        case 1:
            let newYear = CivilDate(year, 1, 1)
            if newYear.weekday != .saturday, observed(newYear) == date { return "New Year's Day" }
            return date == .nth(3, .monday, of: 1, in: year) ? "Martin Luther King Jr. Day" : nil
        case 2:
            return date == .nth(3, .monday, of: 2, in: year) ? "Washington's Birthday" : nil
        case 3, 4:
            return date == easterSunday(in: year).adding(days: -2) ? "Good Friday" : nil
        case 5:
            return date == .last(.monday, of: 5, in: year) ? "Memorial Day" : nil
        case 6:
            return year >= 2022 && date == observed(CivilDate(year, 6, 19)) ? "Juneteenth National Independence Day" : nil
        case 7:
            return date == observed(CivilDate(year, 7, 4)) ? "Independence Day" : nil
        case 9:
            return date == .nth(1, .monday, of: 9, in: year) ? "Labor Day" : nil
        case 11:
            return date == .nth(4, .thursday, of: 11, in: year) ? "Thanksgiving Day" : nil
        case 12:
            return date == observed(CivilDate(year, 12, 25)) ? "Christmas Day" : nil
        default:
            return nil
        }
    }

    /// A fixed-date holiday's observed day: Friday for a Saturday, Monday for a Sunday.
    private static func observed(_ date: CivilDate) -> CivilDate {
        switch date.weekday {
        case .saturday: date.adding(days: -1)
        case .sunday: date.adding(days: 1)
        default: date
        }
    }

    /// July 3 and December 24 when each is Monday to Thursday (weekday 1…4), and the day after
    /// Thanksgiving. The caller has made sure `date` is a trading day.
    private static func isEarlyClose(_ date: CivilDate) -> Bool {
        switch (date.month, date.day) {
        case (7, 3), (12, 24): (1...4).contains(date.weekday.rawValue)
        case (11, 23...29): date == CivilDate.nth(4, .thursday, of: 11, in: date.year).adding(days: 1)
        default: false
        }
    }

    private static func days(of year: Int) -> [CivilDate] {
        let first = CivilDate(year, 1, 1)
        return (0..<(CivilDate.isLeapYear(year) ? 366 : 365)).map { first.adding(days: $0) }
    }

    /// Easter Sunday in the Gregorian calendar: the anonymous Gregorian algorithm (Meeus/Jones/Butcher).
    static func easterSunday(in year: Int) -> CivilDate {
        let a = year % 19
        let b = year / 100
        let c = year % 100
        let d = b / 4
        let e = b % 4
        let f = (b + 8) / 25
        let g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4
        let k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return CivilDate(year, month, day)
    }
}
