import Domain
import Foundation
import Testing

/// The market's phase at instants around a normal day, an early close, a holiday, a weekend and the
/// weekends the clocks change. Instants are written in UTC; the comments give New York time.
@Suite struct MarketStateTests {
    let calendar = NYSECalendar.standard

    func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, _ second: Int = 0) -> Date {
        Date(timeIntervalSince1970: TimeInterval(CivilDate(year, month, day).daysSince1970 * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Wednesday 2026-11-25, the day before Thanksgiving, in standard time (UTC−5).
    @Test func aFullDayMovesThroughEveryPhase() {
        let night = calendar.state(at: utc(2026, 11, 25, 8, 59, 59))  // 03:59:59
        #expect(night.phase == .closed)
        #expect(night.since == utc(2026, 11, 25, 1))  // Tuesday 20:00
        #expect(night.nextChange == utc(2026, 11, 25, 9))
        #expect(night.nextPhase == .preMarket)
        #expect(night.nextOpen == utc(2026, 11, 25, 14, 30))

        let early = calendar.state(at: utc(2026, 11, 25, 9))  // 04:00
        #expect(early.phase == .preMarket)
        #expect(early.nextChange == utc(2026, 11, 25, 14, 30))
        #expect(early.nextPhase == .open)

        let open = calendar.state(at: utc(2026, 11, 25, 14, 30))  // 09:30
        #expect(open.phase == .open)
        #expect(open.since == utc(2026, 11, 25, 14, 30))
        #expect(open.nextChange == utc(2026, 11, 25, 21))
        #expect(open.nextPhase == .afterHours)
        // Thursday is Thanksgiving: the next open is Friday's.
        #expect(open.nextOpen == utc(2026, 11, 27, 14, 30))

        let late = calendar.state(at: utc(2026, 11, 25, 21))  // 16:00
        #expect(late.phase == .afterHours)
        #expect(late.nextChange == utc(2026, 11, 26, 1))
        #expect(late.nextPhase == .closed)

        let closed = calendar.state(at: utc(2026, 11, 26, 1))  // 20:00
        #expect(closed.phase == .closed)
        #expect(closed.since == utc(2026, 11, 26, 1))
        #expect(closed.nextChange == utc(2026, 11, 27, 9))  // Friday 04:00
        #expect(closed.lastSession.date == CivilDate(2026, 11, 25))
    }

    /// Friday 2026-11-27 closes at 13:00 and its after hours end at 17:00; then closed to Monday.
    @Test func anEarlyCloseEndsAtOne() {
        let open = calendar.state(at: utc(2026, 11, 27, 17, 59))  // 12:59
        #expect(open.phase == .open)
        #expect(open.nextChange == utc(2026, 11, 27, 18))
        #expect(open.lastSession.isEarlyClose)
        let late = calendar.state(at: utc(2026, 11, 27, 18))  // 13:00
        #expect(late.phase == .afterHours)
        #expect(late.nextChange == utc(2026, 11, 27, 22))
        let closed = calendar.state(at: utc(2026, 11, 27, 22))  // 17:00
        #expect(closed.phase == .closed)
        #expect(closed.nextChange == utc(2026, 11, 30, 9))
        #expect(closed.nextOpen == utc(2026, 11, 30, 14, 30))
    }

    @Test func aHolidayIsClosedAllDay() {
        for hour in [9, 15, 22] {
            let thanksgiving = calendar.state(at: utc(2026, 11, 26, hour))
            #expect(thanksgiving.phase == .closed)
            #expect(thanksgiving.since == utc(2026, 11, 26, 1))
            #expect(thanksgiving.nextChange == utc(2026, 11, 27, 9))
        }
        // The day of mourning for President Carter, Thursday 2025-01-09, noon.
        let mourning = calendar.state(at: utc(2025, 1, 9, 17))
        #expect(mourning.phase == .closed)
        #expect(mourning.lastSession.date == CivilDate(2025, 1, 8))
        #expect(mourning.nextOpen == utc(2025, 1, 10, 14, 30))
    }

    @Test func aWeekendIsClosedFromFridayEveningToMondayMorning() {
        for instant in [utc(2026, 11, 21, 1), utc(2026, 11, 21, 18), utc(2026, 11, 22, 23, 59), utc(2026, 11, 23, 8, 59)] {
            let state = calendar.state(at: instant)
            #expect(state.phase == .closed, "\(instant)")
            #expect(state.since == utc(2026, 11, 21, 1), "\(instant)")  // Friday 20:00
            #expect(state.nextChange == utc(2026, 11, 23, 9), "\(instant)")  // Monday 04:00
            #expect(state.nextOpen == utc(2026, 11, 23, 14, 30), "\(instant)")
        }
    }

    /// Friday in standard time, Monday in daylight time: the open moves an hour earlier in UTC.
    @Test func theWeekendTheClocksGoForward() {
        let friday = calendar.state(at: utc(2026, 3, 6, 20, 59))  // 15:59 EST
        #expect(friday.phase == .open)
        #expect(friday.nextChange == utc(2026, 3, 6, 21))
        let sunday = calendar.state(at: utc(2026, 3, 8, 7))  // 03:00 EDT, just after the change
        #expect(sunday.phase == .closed)
        #expect(sunday.nextChange == utc(2026, 3, 9, 8))  // 04:00 EDT
        #expect(sunday.nextOpen == utc(2026, 3, 9, 13, 30))  // 09:30 EDT
        #expect(calendar.state(at: utc(2026, 3, 9, 13, 29)).phase == .preMarket)
        #expect(calendar.state(at: utc(2026, 3, 9, 13, 30)).phase == .open)
    }

    @Test func theWeekendTheClocksGoBack() {
        let friday = calendar.state(at: utc(2026, 10, 30, 19, 59))  // 15:59 EDT
        #expect(friday.phase == .open)
        #expect(friday.nextChange == utc(2026, 10, 30, 20))
        let sunday = calendar.state(at: utc(2026, 11, 1, 5, 30))  // 01:30 EDT, the first time
        #expect(sunday.phase == .closed)
        #expect(sunday.since == utc(2026, 10, 31, 0))  // Friday 20:00 EDT
        #expect(sunday.nextOpen == utc(2026, 11, 2, 14, 30))  // 09:30 EST
        #expect(calendar.state(at: utc(2026, 11, 2, 14, 29)).phase == .preMarket)
        #expect(calendar.state(at: utc(2026, 11, 2, 14, 30)).phase == .open)
    }

    /// Whatever the instant, the next change is later, and the state there is the one announced.
    @Test func eachChangeLeadsToTheAnnouncedPhase() {
        var instant = utc(2025, 12, 20, 0)
        for _ in 0..<60 {
            let state = calendar.state(at: instant)
            #expect(state.nextChange > instant)
            #expect(state.since <= instant)
            #expect(calendar.state(at: state.nextChange).phase == state.nextPhase, "\(state.nextChange)")
            #expect(calendar.state(at: state.nextChange.addingTimeInterval(-1)).phase == state.phase, "\(state.nextChange)")
            instant = state.nextChange
        }
    }

    /// Saturday 2026-11-21: Friday's prices are the market's last word; Thursday's are stale; a price
    /// made after the close (a market that never closes) is neither.
    @Test func aPriceFromTheLastSessionIsAClosingPrice() {
        let saturday = calendar.state(at: utc(2026, 11, 21, 15))
        #expect(saturday.isFromClosedSession(utc(2026, 11, 20, 20, 59)))  // Friday 15:59
        #expect(saturday.isFromClosedSession(utc(2026, 11, 21, 0, 59)))   // Friday 19:59, after hours
        #expect(saturday.isFromClosedSession(utc(2026, 11, 20, 9)))       // Friday 04:00
        #expect(!saturday.isFromClosedSession(utc(2026, 11, 20, 8, 59)))  // Friday 03:59: before the session
        #expect(!saturday.isFromClosedSession(utc(2026, 11, 19, 20)))     // Thursday
        #expect(!saturday.isFromClosedSession(utc(2026, 11, 21, 14)))     // Saturday
        let open = calendar.state(at: utc(2026, 11, 20, 15))
        #expect(!open.isFromClosedSession(utc(2026, 11, 20, 14, 59)))
    }
}
