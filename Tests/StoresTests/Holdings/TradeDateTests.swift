import Foundation
import Testing
@testable import Stores

@Suite struct TradeDateTests {
    @Test func readsOnlyRealDaysWrittenYYYYMMDD() {
        #expect(TradeDate(parsing: "2024-03-15") == TradeDate(year: 2024, month: 3, day: 15))
        #expect(TradeDate(parsing: "2024-02-29") != nil)
        #expect(TradeDate(parsing: "2000-02-29") != nil, "divisible by 400")
        #expect(TradeDate(parsing: "1900-02-29") == nil, "divisible by 100")
        #expect(TradeDate(parsing: "2023-02-29") == nil)
        #expect(TradeDate(parsing: "2024-04-31") == nil)
        #expect(TradeDate(parsing: "2024-12-31") != nil)
        for bad in ["2024-00-10", "2024-13-01", "2024-01-00", "0999-01-01", "2024-3-15", "2024/03/15", "15.03.2024",
                    "20240315", " 2024-03-15", "2024-03-15T00:00", "２０２４-03-15", "+024-03-15", ""] {
            #expect(TradeDate(parsing: bad) == nil, "\(bad)")
        }
        #expect(TradeDate.isShapedLikeDate("2023-02-29"))
        #expect(!TradeDate.isShapedLikeDate("2023-2-29"))
    }

    @Test func writesAndOrdersAsItReads() throws {
        let day = try #require(TradeDate(year: 2024, month: 3, day: 5))
        #expect(day.description == "2024-03-05")
        #expect(TradeDate(parsing: "2023-12-31")! < day)
        #expect(day < TradeDate(parsing: "2024-03-06")!)
        let json = try JSONEncoder().encode([day])
        #expect(String(decoding: json, as: UTF8.self) == "[\"2024-03-05\"]")
        #expect(try JSONDecoder().decode([TradeDate].self, from: json) == [day])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([TradeDate].self, from: Data("[\"2024-02-30\"]".utf8)) }
    }

    @Test func todayIsTheDayInTheCalendarsTimeZone() {
        // 2024-03-05 23:30 UTC is already the 6th in Tokyo.
        let instant = Date(timeIntervalSince1970: 1_709_681_400)
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        var tokyo = utc
        tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
        #expect(TradeDate(instant, in: utc).description == "2024-03-05")
        #expect(TradeDate(instant, in: tokyo).description == "2024-03-06")
    }
}
