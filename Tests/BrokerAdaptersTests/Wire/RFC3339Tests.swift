import BrokerAdapters
import Foundation
import Testing

@Suite struct RFC3339Tests {
    /// 2024-11-13T20:15:03Z
    let seconds: Int64 = 1_731_528_903

    @Test(arguments: [
        ("2024-11-13T20:15:03Z", Int32(0)),
        ("2024-11-13T20:15:03.1Z", 100_000_000),
        ("2024-11-13T20:15:03.123Z", 123_000_000),
        ("2024-11-13T20:15:03.123456Z", 123_456_000),
        ("2024-11-13T20:15:03.123456789Z", 123_456_789),
        ("2024-11-13t20:15:03.000000001z", 1),
    ])
    func fractionsOfZeroToNineDigits(text: String, nanoseconds: Int32) {
        #expect(RFC3339.instant(from: text) == RFC3339.Instant(secondsSince1970: seconds, nanoseconds: nanoseconds))
    }

    @Test func offsetsMoveTheInstantToUTC() {
        #expect(RFC3339.instant(from: "2024-11-13T15:15:03-05:00")?.secondsSince1970 == seconds)
        #expect(RFC3339.instant(from: "2024-11-14T01:45:03.5+05:30") == RFC3339.Instant(secondsSince1970: seconds, nanoseconds: 500_000_000))
        #expect(RFC3339.instant(from: "2024-11-13T20:15:03-00:00")?.secondsSince1970 == seconds)
    }

    @Test func calendarEdges() {
        #expect(RFC3339.instant(from: "1970-01-01T00:00:00Z")?.secondsSince1970 == 0)
        #expect(RFC3339.instant(from: "1969-12-31T23:59:59Z")?.secondsSince1970 == -1)
        #expect(RFC3339.instant(from: "2000-02-29T00:00:00Z")?.secondsSince1970 == 951_782_400)
        #expect(RFC3339.instant(from: "2038-01-19T03:14:08Z")?.secondsSince1970 == 2_147_483_648)
        // A leap second counts as the start of the next second.
        #expect(RFC3339.instant(from: "2016-12-31T23:59:60Z")?.secondsSince1970 == 1_483_228_800)
    }

    @Test func dateKeepsSubMicrosecondPrecision() throws {
        let date = try #require(RFC3339.date(from: "2024-11-13T20:15:03.123456789Z"))
        #expect(abs(date.timeIntervalSince1970 - 1_731_528_903.123456789) < 1e-6)
        let later = try #require(RFC3339.date(from: "2024-11-13T20:15:03.123457789Z"))
        #expect(later > date)
    }

    @Test(arguments: [
        "", "garbage", "2024-11-13", "2024-11-13T20:15:03", "2024-11-13 20:15:03Z", "2024-11-13T20:15Z",
        "2024-11-13T20:15:03.Z", "2024-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
        "2024-11-31T00:00:00Z", "2024-11-13T24:00:00Z", "2024-11-13T20:60:00Z", "2024-11-13T20:15:61Z",
        "2024-11-13T20:15:03+0500", "2024-11-13T20:15:03+24:00", "2024-11-13T20:15:03Z ", " 2024-11-13T20:15:03Z",
        "２０24-11-13T20:15:03Z", "2024-1-13T20:15:03Z", "+2024-11-13T20:15:03Z",
    ])
    func rejectsGarbage(text: String) {
        #expect(RFC3339.instant(from: text) == nil)
    }

    @Test func decodesAsAWireField() throws {
        struct Trade: Decodable { var t: RFC3339Date }
        let trade = try JSONDecoder().decode(Trade.self, from: Data(#"{"t":"2024-11-13T20:15:03.123456789Z"}"#.utf8))
        #expect(trade.t.instant == RFC3339.Instant(secondsSince1970: seconds, nanoseconds: 123_456_789))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Trade.self, from: Data(#"{"t":"yesterday"}"#.utf8))
        }
    }
}
