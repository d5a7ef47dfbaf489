import BrokerAdapters
import Foundation
import Testing

@Suite struct RFC3339Tests {
    /// 2024-11-13T20:15:03Z
    let seconds: Int64 = 1_731_528_903

    @Test(arguments: [
        ("2024-11-13T20:15:03Z", Int32(0)),
        ("2024-11-13T20:15:03.1Z", 100_000_000),
        ("2024-11-13T20:15:03.5Z", 500_000_000),
        ("2024-11-13T20:15:03.123Z", 123_000_000),
        ("2024-11-13T20:15:03.441Z", 441_000_000),
        ("2024-11-13T20:15:03.98765Z", 987_650_000),
        ("2024-11-13T20:15:03.002071Z", 2_071_000),
        ("2024-11-13T20:15:03.123456Z", 123_456_000),
        ("2024-11-13T20:15:03.123456789Z", 123_456_789),
        ("2024-11-13T20:15:03.000000001Z", 1),
        ("2024-11-13t20:15:03.000000001z", 1),
    ])
    func fractionsOfZeroToNineDigits(text: String, nanoseconds: Int32) {
        #expect(RFC3339.instant(from: text) == RFC3339.Instant(secondsSince1970: seconds, nanoseconds: nanoseconds))
    }

    /// RFC 3339's `time-secfrac` has no upper bound; digits past the ninth are below a nanosecond.
    @Test func fractionDigitsPastTheNinthAreDropped() {
        #expect(RFC3339.instant(from: "2024-11-13T20:15:03.1234567891Z") == RFC3339.Instant(secondsSince1970: seconds, nanoseconds: 123_456_789))
        #expect(RFC3339.instant(from: "2024-11-13T20:15:03.9999999999999Z") == RFC3339.Instant(secondsSince1970: seconds, nanoseconds: 999_999_999))
    }

    @Test func offsetsMoveTheInstantToUTC() {
        #expect(RFC3339.instant(from: "2024-11-13T15:15:03-05:00")?.secondsSince1970 == seconds)
        #expect(RFC3339.instant(from: "2024-11-14T01:45:03.5+05:30") == RFC3339.Instant(secondsSince1970: seconds, nanoseconds: 500_000_000))
        #expect(RFC3339.instant(from: "2024-11-13T20:15:03-00:00")?.secondsSince1970 == seconds)
    }

    @Test func offsetsAndLowerCaseMeanTheSameInstant() {
        let utc = RFC3339.instant(from: "2024-11-13T20:15:03.25Z")
        #expect(utc != nil)
        #expect(RFC3339.instant(from: "2024-11-13T15:15:03.25-05:00") == utc)
        #expect(RFC3339.instant(from: "2024-11-14T01:45:03.25+05:30") == utc)
        #expect(RFC3339.instant(from: "2024-11-13t20:15:03.25z") == utc)
        #expect(RFC3339.instant(from: "2024-11-13T20:15:03.25+00:00") == utc)
    }

    @Test func calendarEdges() {
        #expect(RFC3339.instant(from: "1970-01-01T00:00:00Z")?.secondsSince1970 == 0)
        #expect(RFC3339.instant(from: "1970-01-01T00:00:00Z") == RFC3339.Instant(secondsSince1970: 0, nanoseconds: 0))
        #expect(RFC3339.instant(from: "1969-12-31T23:59:59Z")?.secondsSince1970 == -1)
        #expect(RFC3339.instant(from: "1969-12-31T23:59:59.5Z") == RFC3339.Instant(secondsSince1970: -1, nanoseconds: 500_000_000))
        #expect(RFC3339.instant(from: "2000-02-29T00:00:00Z")?.secondsSince1970 == 951_782_400)
        #expect(RFC3339.instant(from: "2024-02-29T12:00:00Z")?.secondsSince1970 == 1_709_208_000)
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
        "2024-11-13T20:15:03.Z", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "2023-02-29T00:00:00Z",
        "2024-11-31T00:00:00Z", "2024-04-31T00:00:00Z", "2024-11-13T24:00:00Z", "2024-11-13T20:60:00Z",
        "2024-11-13T20:15:61Z", "2024-11-13T20:15:03+0500", "2024-11-13T20:15:03+24:00", "2024-11-13T20:15:03Z ",
        " 2024-11-13T20:15:03Z", "2024-11-13T20:15:03Zjunk", "２０24-11-13T20:15:03Z", "１２３４-11-13T20:15:03Z",
        "2024-1-13T20:15:03Z", "24-11-13T20:15:03Z", "+2024-11-13T20:15:03Z", "2024-11-13T20:15:03.12a4Z",
        "2024-11-13T20:15:03.123456789",
    ])
    func rejectsGarbage(text: String) {
        #expect(RFC3339.instant(from: text) == nil)
    }

    /// Whole-second instants over two centuries agree with Foundation's own ISO 8601 formatter.
    @Test func agreesWithFoundationOnWholeSeconds() {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        var checked = 0
        for seconds in stride(from: Int64(-2_000_000_000), to: 4_000_000_000, by: 3_196_781) {
            let text = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
            #expect(RFC3339.instant(from: text)?.secondsSince1970 == seconds, "\(text)")
            checked += 1
        }
        #expect(checked > 1_000)
    }

    @Test func ordersByInstant() throws {
        let earlier = try #require(RFC3339.instant(from: "2024-11-13T20:15:03.999999999Z"))
        let later = try #require(RFC3339.instant(from: "2024-11-13T20:15:04Z"))
        #expect(earlier < later)
        #expect(earlier.description == "1731528903.999999999")
        #expect(RFC3339.Instant(secondsSince1970: -1, nanoseconds: 500_000_000).description == "-0.500000000")
        #expect(RFC3339.Instant(secondsSince1970: -2, nanoseconds: 0) < RFC3339.Instant(secondsSince1970: -1, nanoseconds: 500_000_000))
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
