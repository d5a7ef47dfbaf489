import CommonBrokerApp
import Domain
import Foundation
import Testing

@Suite struct SnapshotReportTests {
    let now = Date(timeIntervalSince1970: 1_763_900_000)

    /// `print` shows what the screen shows: volume and the age of each price, aligned; broker text escaped.
    @Test func theTableHasVolumeAndAgeAndEscapesBrokerText() {
        let quote = CommonQuote(
            symbol: "AAPL", last: 189.84, timestamp: now.addingTimeInterval(-42), bid: 189.83, ask: 189.85,
            previousClose: 187.5, volume: 52_340_000)
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
}
