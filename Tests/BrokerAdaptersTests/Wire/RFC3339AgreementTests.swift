import Foundation
import Testing
@testable import BrokerAdapters

/// Cases first written for Alpaca's timestamps (0–9 fraction digits), now run against the shared parser.
@Suite struct RFC3339AgreementTests {
    @Test(arguments: [
        ("2024-11-13T20:15:03Z", Int32(0)),
        ("2024-11-13T20:15:03.5Z", 500_000_000),
        ("2024-11-13T20:15:03.441Z", 441_000_000),
        ("2024-11-13T20:15:03.002071Z", 2_071_000),
        ("2024-11-13T20:15:03.98765Z", 987_650_000),
        ("2024-11-13T20:15:03.123456789Z", 123_456_789),
        ("2024-11-13T20:15:03.000000001Z", 1),
    ])
    func keepsEveryFractionDigitAsNanoseconds(text: String, nanoseconds: Int32) throws {
        let stamp = try #require(RFC3339.instant(from: text))
        #expect(stamp.secondsSince1970 == 1_731_528_903)
        #expect(stamp.nanoseconds == nanoseconds)
    }

    @Test func dateCarriesTheFractionToDatePrecision() throws {
        let stamp = try #require(RFC3339.instant(from: "2024-11-13T20:15:03.123456789Z"))
        #expect(abs(stamp.date.timeIntervalSince1970 - 1_731_528_903.123456789) < 1e-6)
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
        #expect(RFC3339.instant(from: "1970-01-01T00:00:00Z") == RFC3339.Instant(secondsSince1970: 0, nanoseconds: 0))
        #expect(RFC3339.instant(from: "1969-12-31T23:59:59.5Z") == RFC3339.Instant(secondsSince1970: -1, nanoseconds: 500_000_000))
        #expect(RFC3339.instant(from: "2024-02-29T12:00:00Z")?.secondsSince1970 == 1_709_208_000)
        #expect(RFC3339.instant(from: "2000-02-29T00:00:00Z") != nil)
        // A leap second lands on the next second.
        #expect(RFC3339.instant(from: "2016-12-31T23:59:60Z")?.secondsSince1970 == 1_483_228_800)
    }

    @Test func extraFractionDigitsAreDropped() {
        #expect(RFC3339.instant(from: "2024-11-13T20:15:03.1234567891Z")?.nanoseconds == 123_456_789)
    }

    @Test(arguments: [
        "", "2024-11-13", "2024-11-13T20:15:03", "2024-11-13T20:15:03.Z", "2024-11-13 20:15:03Z",
        "2024-11-13T20:15:03Zjunk", "2024-13-01T00:00:00Z", "2024-00-10T00:00:00Z", "2023-02-29T00:00:00Z",
        "2024-04-31T00:00:00Z", "2024-11-13T24:00:00Z", "2024-11-13T20:60:00Z", "2024-11-13T20:15:61Z",
        "2024-11-13T20:15:03+0500", "2024-11-13T20:15:03+24:00", "24-11-13T20:15:03Z", "2024-11-13T20:15:03.12a4Z",
        "１２３４-11-13T20:15:03Z", "2024-11-13T20:15:03.123456789",
    ])
    func rejectsWhatIsNotRFC3339(text: String) {
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
    }
}
