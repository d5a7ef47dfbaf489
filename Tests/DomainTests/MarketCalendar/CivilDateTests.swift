import Domain
import Foundation
import Testing

@Suite struct CivilDateTests {
    /// Days since 1970 and back, against Foundation's Gregorian calendar in UTC, from 1900 to 2100.
    @Test func agreesWithFoundationsGregorianCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for days in stride(from: -25_567, through: 47_482, by: 1) {
            let civil = CivilDate(daysSince1970: days)
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: TimeInterval(days * 86_400)))
            guard civil.year == parts.year, civil.month == parts.month, civil.day == parts.day,
                  civil.weekday.rawValue + 1 == parts.weekday, civil.daysSince1970 == days else {
                Issue.record("day \(days): \(civil) \(civil.weekday), Foundation \(parts)")
                return
            }
        }
    }

    @Test func findsNthAndLastWeekdays() {
        #expect(CivilDate.nth(3, .monday, of: 1, in: 2025) == CivilDate(2025, 1, 20))
        #expect(CivilDate.nth(4, .thursday, of: 11, in: 2026) == CivilDate(2026, 11, 26))
        #expect(CivilDate.nth(1, .monday, of: 9, in: 2025) == CivilDate(2025, 9, 1))
        #expect(CivilDate.last(.monday, of: 5, in: 2027) == CivilDate(2027, 5, 31))
        #expect(CivilDate.last(.sunday, of: 10, in: 2006) == CivilDate(2006, 10, 29))
    }

    @Test func spellsAndOrdersDays() {
        #expect(CivilDate(2025, 1, 9).description == "2025-01-09")
        #expect(CivilDate(2024, 12, 31) < CivilDate(2025, 1, 1))
        #expect(CivilDate(2024, 2, 28).adding(days: 1) == CivilDate(2024, 2, 29))
        #expect(CivilDate(2025, 1, 9).weekday.abbreviation == "Thu")
    }
}
