import Foundation
import PaperTrading
import Testing

@Suite struct MarketSessionTests {
    let session = MarketSession.usRegularHours

    func ny(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, _ second: Int = 0) -> Date {
        WallClock.newYork(year, month, day, hour, minute, second)
    }

    @Test func regularHoursAreNineThirtyToFourInNewYorkOnWeekdays() {
        // Wednesday 2026-11-25 (standard time, UTC−5).
        #expect(!session.isOpen(at: ny(2026, 11, 25, 9, 29, 59)))
        #expect(session.isOpen(at: ny(2026, 11, 25, 9, 30)))
        #expect(session.isOpen(at: ny(2026, 11, 25, 15, 59, 59)))
        #expect(!session.isOpen(at: ny(2026, 11, 25, 16, 0)))
        // 14:30 UTC is 09:30 in New York in winter.
        #expect(session.isOpen(at: Date(timeIntervalSince1970: 1_795_617_000)))
        // Saturday and Sunday.
        #expect(!session.isOpen(at: ny(2026, 11, 28, 12)))
        #expect(!session.isOpen(at: ny(2026, 11, 29, 12)))
    }

    @Test func daylightSavingTimeMovesTheSessionInUTC() {
        // Wednesday 2026-07-15, UTC−4: 13:30 UTC is 09:30 in New York.
        let summerOpen = ny(2026, 7, 15, 9, 30)
        #expect(summerOpen == Date(timeIntervalSince1970: 1_784_122_200))
        #expect(session.isOpen(at: summerOpen) && !session.isOpen(at: summerOpen.addingTimeInterval(-1)))
        // Monday 2026-03-09, the first weekday after the clocks went forward.
        #expect(session.close(ofSessionAt: ny(2026, 3, 9, 10)) == ny(2026, 3, 9, 16))
    }

    @Test func aDayOrderBelongsToTodaysSessionOrTheNextTradingDays() {
        // Before the open and during the session: today's close.
        #expect(session.close(ofSessionAt: ny(2026, 11, 25, 7)) == ny(2026, 11, 25, 16))
        #expect(session.close(ofSessionAt: ny(2026, 11, 25, 15, 59)) == ny(2026, 11, 25, 16))
        // At or after the close: the next trading day's; Friday evening and the weekend: Monday's.
        #expect(session.close(ofSessionAt: ny(2026, 11, 24, 16)) == ny(2026, 11, 25, 16))
        #expect(session.close(ofSessionAt: ny(2026, 11, 27, 18)) == ny(2026, 11, 30, 16))
        #expect(session.close(ofSessionAt: ny(2026, 11, 29, 9)) == ny(2026, 11, 30, 16))
    }

    @Test func aroundTheClockIsAlwaysOpenAndDayOrdersEndAtMidnightInNewYork() {
        let always = MarketSession.aroundTheClock
        #expect(always.isOpen(at: ny(2026, 11, 28, 3)) && always.isOpen(at: ny(2026, 11, 25, 23, 59, 59)))
        #expect(always.close(ofSessionAt: ny(2026, 11, 28, 3)) == ny(2026, 11, 29, 0))
        // The night the clocks go back (2026-11-01): midnight to midnight is 25 hours.
        #expect(always.close(ofSessionAt: ny(2026, 11, 1, 0, 30)) == ny(2026, 11, 2, 0))
        #expect(ny(2026, 11, 2, 0).timeIntervalSince(ny(2026, 11, 1, 0)) == 25 * 3_600)
    }

    @Test func holidaysHaveNoSessionAndEarlyClosesEndAtOne() {
        // Thursday 2026-11-26 is Thanksgiving; Friday the 27th closes at 13:00.
        #expect(!session.isOpen(at: ny(2026, 11, 26, 11)))
        #expect(session.isOpen(at: ny(2026, 11, 27, 12, 59, 59)))
        #expect(!session.isOpen(at: ny(2026, 11, 27, 13)))
        // A day order placed after Wednesday's close expires at Friday's early close, not on the holiday.
        #expect(session.close(ofSessionAt: ny(2026, 11, 25, 16)) == ny(2026, 11, 27, 13))
        #expect(session.close(ofSessionAt: ny(2026, 11, 26, 10)) == ny(2026, 11, 27, 13))
        // Good Friday 2026 is April 3: Thursday evening's order lasts until Monday's close.
        #expect(!session.isOpen(at: ny(2026, 4, 3, 11)))
        #expect(session.close(ofSessionAt: ny(2026, 4, 2, 17)) == ny(2026, 4, 6, 16))
    }
}
