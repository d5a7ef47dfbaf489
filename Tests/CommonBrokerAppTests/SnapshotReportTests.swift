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
            "bid": 0.3999, "ask": 90000000000, "volume": 7, "timestamp": "2025-11-23T12:13:20.250Z", "error": null},
              {"id": "b:X", "symbol": "X", "brand": "b", "brandName": "Beta", "last": null, "change": null, "changePercent": null, \
            "bid": null, "ask": null, "volume": null, "timestamp": null, "error": "unknown symbol X"}
            ]

            """)
    }
}
