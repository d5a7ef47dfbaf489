import CommonBrokerApp
import Domain
import Foundation
import Testing

@Suite struct SnapshotReportTests {
    let now = Date(timeIntervalSince1970: 1_763_900_000)

    /// `print` shows what the screen shows: volume and the age of each price, aligned; broker text escaped.
    @Test func theTableHasVolumeAndAgeAndEscapesBrokerText() {
        let quote = CommonQuote(
            symbol: "AAPL", last: exactDecimal("189.84"), timestamp: now.addingTimeInterval(-42), bid: exactDecimal("189.83"), ask: exactDecimal("189.85"),
            previousClose: exactDecimal("187.5"), volume: 52_340_000)
        let rows = [
            SnapshotRow(key: QuoteKey(brandID: "a", symbol: "AAPL"), brandName: "Alpha", quote: quote, error: nil),
            SnapshotRow(key: QuoteKey(brandID: "e", symbol: "AAPL"), brandName: "Evil\u{1B}[31m", quote: nil,
                        error: .badResponse("bad\u{1B}]0;x\u{7}")),
        ]
        let lines = SnapshotReport.table(rows, now: now).split(separator: "\n").map(String.init)
        #expect(lines == [
            "SYMBOL  BROKER            LAST  CHANGE    CHG%     BID     ASK  VOLUME  AGE  STATUS",
            "AAPL    Alpha           189.84   +2.34  +1.25%  189.83  189.85   52.3M  42s  ok",
            "AAPL    Evil\\u{1b}[31m       —       —       —       —       —       —    —  bad response: bad\\u{1b}]0;x\\u{7}",
        ])
    }

    /// `print --json` spells each number with the quote's exact digits: a script gets 0.3 for a change of
    /// 0.4 − 0.1, not 0.30000000000000004, and the percent cut at 8 decimals (see `CommonQuote`).
    @Test func jsonNumbersAreTheExactDecimals() {
        let quote = CommonQuote(
            symbol: "X", last: exactDecimal("0.4"), timestamp: Date(timeIntervalSince1970: 1_763_900_000.25), bid: exactDecimal("0.3999"),
            ask: exactDecimal("90000000000"), previousClose: exactDecimal("0.3"), volume: 7)
        let rows = [
            SnapshotRow(key: QuoteKey(brandID: "a", symbol: "X"), brandName: "Alpha", quote: quote),
            SnapshotRow(key: QuoteKey(brandID: "b", symbol: "X"), brandName: "Beta", error: .unknownSymbol("X")),
        ]
        #expect(SnapshotReport.json(rows) == """
            [
              {"id": "a:X", "symbol": "X", "brand": "a", "brandName": "Alpha", "last": 0.4, "change": 0.1, "changePercent": 33.33333333, \
            "bid": 0.3999, "ask": 90000000000, "spread": 89999999999.6001, "volume": 7, "previousClose": 0.3, \
            "timestamp": "2025-11-23T12:13:20.250Z", "error": null},
              {"id": "b:X", "symbol": "X", "brand": "b", "brandName": "Beta", "last": null, "change": null, "changePercent": null, \
            "bid": null, "ask": null, "spread": null, "volume": null, "previousClose": null, "timestamp": null, "error": "unknown symbol X"}
            ]

            """)
    }

    /// `print --csv`: a header of the JSON names, one record a row, exact digits, empty for absent values;
    /// a broker's name with a comma, a quote and a line break escaped and quoted (RFC 4180).
    @Test func csvHasTheJSONColumnsAndQuotesWhatItMust() {
        let quote = CommonQuote(
            symbol: "AAPL", last: exactDecimal("189.84"), timestamp: Date(timeIntervalSince1970: 1_763_900_000), bid: exactDecimal("189.83"),
            ask: exactDecimal("189.85"), previousClose: exactDecimal("187.5"), volume: 52_340_000)
        let rows = [
            SnapshotRow(key: QuoteKey(brandID: "a", symbol: "AAPL"), brandName: "Alpha, \"the first\"\nline", quote: quote),
            SnapshotRow(key: QuoteKey(brandID: "b", symbol: "BRK.B"), brandName: "Beta", error: .badResponse("expected \"last\", got 1,2")),
        ]
        #expect(SnapshotReport.csv(rows) == """
            id,symbol,brand,brandName,last,change,changePercent,bid,ask,spread,volume,previousClose,timestamp,error\r
            a:AAPL,AAPL,a,"Alpha, ""the first""\\u{a}line",189.84,2.34,1.248,189.83,189.85,0.02,52340000,187.5,2025-11-23T12:13:20.000Z,\r
            b:BRK.B,BRK.B,b,Beta,,,,,,,,,,"bad response: expected ""last"", got 1,2"\r

            """)
        #expect(SnapshotReport.csv([]) == SnapshotReport.columns.joined(separator: ",") + "\r\n")
    }

    /// `print --follow`: a batch from the feed becomes one JSON object a line per quote and per failure,
    /// sorted, with the broker's name; each line parses on its own and has every column.
    @Test func followLinesAreOneObjectEach() throws {
        let update = MarketUpdate(
            quotes: [
                QuoteKey(brandID: "b", symbol: "MSFT"): CommonQuote(symbol: "MSFT", last: exactDecimal("402.1"), timestamp: now),
                QuoteKey(brandID: "a", symbol: "MSFT"): CommonQuote(symbol: "MSFT", last: exactDecimal("402.12"), timestamp: now),
            ],
            failures: [QuoteKey(brandID: "a", symbol: "ZZZZ"): .unknownSymbol("ZZZZ")],
            brokerStates: ["a": .live])
        let rows = SnapshotReport.rows(from: update, brokerNames: ["a": "Alpha", "b": "Beta\u{1B}"])
        let lines = rows.map(SnapshotReport.line)
        #expect(lines.count == 3)
        #expect(lines[0] == #"{"id": "a:MSFT", "symbol": "MSFT", "brand": "a", "brandName": "Alpha", "last": 402.12, "change": null, "#
            + #""changePercent": null, "bid": null, "ask": null, "spread": null, "volume": null, "previousClose": null, "#
            + #""timestamp": "2025-11-23T12:13:20.000Z", "error": null}"# + "\n")
        for line in lines {
            #expect(line.hasSuffix("}\n") && line.dropLast().allSatisfy { $0 != "\n" })
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(Set(object.keys) == Set(SnapshotReport.columns))
        }
        let parsed = try lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(parsed.map { $0["id"] as? String } == ["a:MSFT", "b:MSFT", "a:ZZZZ"])
        #expect(parsed[1]["brandName"] as? String == "Beta\u{1B}")
        #expect(parsed[2]["error"] as? String == "unknown symbol ZZZZ")
    }

    /// On a Saturday, a price from Friday's session is "closed" in print's table too; a crypto pair's
    /// keeps counting.
    @Test func theTableSaysClosedForLastSessionPrices() {
        let saturday = Date(timeIntervalSince1970: TimeInterval(CivilDate(2026, 11, 21).daysSince1970 * 86_400 + 15 * 3_600))
        let friday = saturday.addingTimeInterval(-18 * 3_600 - 60)  // Friday 15:59 New York
        let rows = ["AAPL", "BTC/USD"].map {
            SnapshotRow(key: QuoteKey(brandID: "a", symbol: $0), brandName: "Alpha", quote: CommonQuote(symbol: $0, last: 10, timestamp: friday))
        }
        let lines = SnapshotReport.table(rows, now: saturday, market: NYSECalendar.standard.state(at: saturday)).split(separator: "\n")
        #expect(lines[1].hasSuffix("closed  ok"))
        #expect(lines[2].hasSuffix("18h  ok"))
        // Without a market, both count.
        #expect(SnapshotReport.table(rows, now: saturday).split(separator: "\n")[1].hasSuffix("18h  ok"))
    }
}
