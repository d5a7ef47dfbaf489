import Domain
import Foundation
import Interactors
import TerminalKit
import TerminalUI
import Testing

/// The table names each row's broker from that row's own branding. Rows of one broker id share a broker
/// index, and the table checks the branding it styled for that index against the row's, field by field
/// (`WatchlistTable.FormattedRows.same`); these tests hold that check to every field.
@Suite struct BrandingPerRowTests {
    /// The fields the table's check compares. A field added to `ServiceBranding` must be added there too.
    @Test func theTablesCheckKnowsEveryFieldOfABranding() {
        let fields = Mirror(reflecting: WatchlistFixture.alpha).children.map(\.label)
        #expect(fields == ["id", "name", "glyph", "color"], "update WatchlistTable.FormattedRows.same(_:as:) for the new fields")
    }

    @Test(arguments: [
        ServiceBranding(id: "demo-alpha", name: "Alpha Omeg", glyph: "α", color: .cyan),
        ServiceBranding(id: "demo-alpha", name: "Alpha Demo", glyph: "A", color: .cyan),
    ])
    func aRowWhoseBrandingDiffersFromAnEarlierRowOfItsBrokerShowsItsOwn(_ other: ServiceBranding) {
        let rows = [
            WatchlistFixture.row("AAPL", WatchlistFixture.alpha, last: "189.84"),
            WatchlistFixture.row("MSFT", other, last: "402.12"),
        ]
        let lines = WatchlistFixture.render(WatchlistFixture.state(rows: rows), columns: 100, rows: 12).lines
        let aapl = lines.first { $0.contains("AAPL") } ?? ""
        let msft = lines.first { $0.contains("MSFT") } ?? ""
        #expect(aapl.contains("α Alpha Demo"), "\(aapl)")
        #expect(msft.contains("\(other.glyph) \(other.name)"), "\(msft)")
    }

    @Test func aLongerNameOnALaterRowOfTheSameBrokerIsNotCut() {
        let longer = ServiceBranding(id: "demo-alpha", name: "Alpha Demo Extended", glyph: "α", color: .cyan)
        let rows = [
            WatchlistFixture.row("AAPL", WatchlistFixture.alpha, last: "189.84"),
            WatchlistFixture.row("MSFT", longer, last: "402.12"),
        ]
        let lines = WatchlistFixture.render(WatchlistFixture.state(rows: rows), columns: 120, rows: 12).lines
        let msft = lines.first { $0.contains("MSFT") } ?? ""
        #expect(msft.contains("α Alpha Demo Extended "), "\(msft)")
    }
}
