import Domain
import Testing

/// The NYSE's holidays and early closes for 2024–2030, written by hand from the exchange's published
/// holiday schedule (nyse.com, "Holidays & Trading Hours"), not from the rules the calendar computes.
@Suite struct NYSECalendarTests {
    static let published: [Int: (closures: [String], earlyCloses: [String])] = [
        2024: (["2024-01-01", "2024-01-15", "2024-02-19", "2024-03-29", "2024-05-27", "2024-06-19", "2024-07-04", "2024-09-02",
                "2024-11-28", "2024-12-25"],
               ["2024-07-03", "2024-11-29", "2024-12-24"]),
        // 2025-01-09: closed for the national day of mourning for President Carter, announced that week.
        2025: (["2025-01-01", "2025-01-09", "2025-01-20", "2025-02-17", "2025-04-18", "2025-05-26", "2025-06-19", "2025-07-04",
                "2025-09-01", "2025-11-27", "2025-12-25"],
               ["2025-07-03", "2025-11-28", "2025-12-24"]),
        // July 4 is a Saturday: observed Friday July 3, and no early close that week.
        2026: (["2026-01-01", "2026-01-19", "2026-02-16", "2026-04-03", "2026-05-25", "2026-06-19", "2026-07-03", "2026-09-07",
                "2026-11-26", "2026-12-25"],
               ["2026-11-27", "2026-12-24"]),
        // Juneteenth and Christmas on Saturdays, July 4 on a Sunday.
        2027: (["2027-01-01", "2027-01-18", "2027-02-15", "2027-03-26", "2027-05-31", "2027-06-18", "2027-07-05", "2027-09-06",
                "2027-11-25", "2027-12-24"],
               ["2027-11-26"]),
        // January 1 is a Saturday: not observed, and Friday, December 31, 2027 is a full trading day.
        2028: (["2028-01-17", "2028-02-21", "2028-04-14", "2028-05-29", "2028-06-19", "2028-07-04", "2028-09-04", "2028-11-23",
                "2028-12-25"],
               ["2028-07-03", "2028-11-24"]),
        2029: (["2029-01-01", "2029-01-15", "2029-02-19", "2029-03-30", "2029-05-28", "2029-06-19", "2029-07-04", "2029-09-03",
                "2029-11-22", "2029-12-25"],
               ["2029-07-03", "2029-11-23", "2029-12-24"]),
        2030: (["2030-01-01", "2030-01-21", "2030-02-18", "2030-04-19", "2030-05-27", "2030-06-19", "2030-07-04", "2030-09-02",
                "2030-11-28", "2030-12-25"],
               ["2030-07-03", "2030-11-29", "2030-12-24"]),
    ]

    let calendar = NYSECalendar.standard

    @Test(arguments: 2024...2030)
    func closuresMatchThePublishedSchedule(year: Int) {
        #expect(calendar.closures(in: year).map(\.date.description) == Self.published[year]!.closures)
    }

    @Test(arguments: 2024...2030)
    func earlyClosesMatchThePublishedSchedule(year: Int) {
        #expect(calendar.earlyCloses(in: year).map(\.description) == Self.published[year]!.earlyCloses)
    }

    /// Every day of 2024–2030 agrees with the table: a published closure has no session, a published
    /// early close ends at 13:00, every other weekday is a full day and no weekend opens.
    @Test func everyDayOfTheYearsAgreesWithTheTable() {
        var day = CivilDate(2024, 1, 1)
        while day.year <= 2030 {
            let (closures, earlyCloses) = Self.published[day.year]!
            let session = calendar.tradingDay(on: day)
            if day.weekday.isWeekend || closures.contains(day.description) {
                #expect(session == nil, "\(day)")
            } else {
                #expect(session?.isEarlyClose == earlyCloses.contains(day.description), "\(day)")
            }
            day = day.adding(days: 1)
        }
    }

    @Test func namesTheHolidaysAndTheSpecialClosure() {
        #expect(calendar.closure(on: CivilDate(2025, 4, 18)) == MarketClosure(date: CivilDate(2025, 4, 18), name: "Good Friday"))
        #expect(calendar.closure(on: CivilDate(2026, 7, 3))?.name == "Independence Day")
        let carter = calendar.closure(on: CivilDate(2025, 1, 9))
        #expect(carter?.isSpecial == true)
        #expect(carter?.name == "National Day of Mourning for President Jimmy Carter")
        #expect(calendar.closure(on: CivilDate(2025, 1, 10)) == nil)
        // A weekend needs no reason.
        #expect(calendar.closure(on: CivilDate(2025, 1, 11)) == nil)
    }

    /// One-off closures come from the table: without it, 2025-01-09 is an ordinary Thursday.
    @Test func specialClosuresComeFromTheTable() {
        let rulesOnly = NYSECalendar(specialClosures: [:])
        #expect(rulesOnly.tradingDay(on: CivilDate(2025, 1, 9)) != nil)
        #expect(!rulesOnly.closures(in: 2025).contains { $0.date == CivilDate(2025, 1, 9) })
        let storm = NYSECalendar(specialClosures: [CivilDate(2030, 7, 3): "storm"])
        #expect(storm.tradingDay(on: CivilDate(2030, 7, 3)) == nil)
        // The early close that day does not happen: the exchange is shut.
        #expect(storm.earlyCloses(in: 2030).map(\.description) == ["2030-11-29", "2030-12-24"])
    }

    /// Juneteenth became an exchange holiday in 2022.
    @Test func juneteenthStartsIn2022() {
        #expect(calendar.tradingDay(on: CivilDate(2021, 6, 18)) != nil)
        #expect(calendar.tradingDay(on: CivilDate(2022, 6, 20)) == nil)
        #expect(calendar.closure(on: CivilDate(2022, 6, 20))?.name == "Juneteenth National Independence Day")
    }

    /// The Saturday rule for New Year's Day, in years the exchange already traded through: 2010-12-31 and
    /// 2021-12-31 were full days.
    @Test func aSaturdayNewYearIsNotObserved() {
        #expect(calendar.tradingDay(on: CivilDate(2021, 12, 31))?.isEarlyClose == false)
        #expect(calendar.tradingDay(on: CivilDate(2010, 12, 31)) != nil)
        #expect(calendar.closures(in: 2022).first?.name == "Martin Luther King Jr. Day")
        // A Sunday New Year's Day is observed on Monday.
        #expect(calendar.closure(on: CivilDate(2023, 1, 2))?.name == "New Year's Day")
    }

    /// Easter by computus against known dates, including the extremes March 22 and April 25.
    @Test func goodFridayIsTwoDaysBeforeEaster() {
        let easters = [(1818, 3, 22), (1943, 4, 25), (2000, 4, 23), (2019, 4, 21), (2038, 4, 25), (2285, 3, 22)]
        for (year, month, day) in easters {
            let friday = CivilDate(year, month, day).adding(days: -2)
            #expect(calendar.closure(on: friday)?.name == "Good Friday", "\(year)")
        }
    }

    /// Any year works, far from the table: the rules give ten holidays, or nine when New Year's Day is a
    /// Saturday, all weekdays, and three or fewer early closes.
    @Test func everyYearHasItsHolidays() {
        for year in 2022...2400 {
            let closures = NYSECalendar(specialClosures: [:]).closures(in: year)
            #expect(closures.count == (CivilDate(year, 1, 1).weekday == .saturday ? 9 : 10), "\(year)")
            #expect(closures.allSatisfy { !$0.date.weekday.isWeekend && $0.date.year == year }, "\(year)")
            #expect((1...3).contains(calendar.earlyCloses(in: year).count), "\(year)")
        }
    }
}
