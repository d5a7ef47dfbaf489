import Interactors
import TerminalKit
import Testing
import TerminalUI

/// The `/` filter on screen: its prompt while typing, and the table it leaves with the header saying so.
@Suite struct FilterScreenTests {
    typealias F = WatchlistFixture
    static let sizes = [(200, 50), (120, 35), (80, 24), (60, 20)]

    /// The fixture's rows the query keeps, in `RowFilter`'s order.
    static func state(filter: String, front: FrontScreen) -> WatchlistViewState {
        let substring = F.rows.filter { RowFilter.match(filter, in: [$0.key.symbol, $0.branding.name, $0.branding.id]) == .substring }
        let fuzzy = F.rows.filter { RowFilter.match(filter, in: [$0.key.symbol, $0.branding.name, $0.branding.id]) == .fuzzy }
        var state = F.state(rows: substring + fuzzy, front: front, message: nil)
        state.filter = filter
        return state
    }

    @Test func thePromptFiltersAsTheUserTypes() {
        for (columns, rows) in Self.sizes {
            let frame = F.render(Self.state(filter: "aap", front: .filtering(TextPrompt(text: "aap"))), columns: columns, rows: rows)
            Snapshot.expect(frame, matches: "filter-prompt-\(columns)x\(rows)")
            let status = frame.lines[rows - 2]
            #expect(status.contains("Filter: aap"))
            #expect(frame.lines[0].contains("filter: aap"))
            // The cursor waits after the typed text.
            #expect(frame.cursor?.row == rows - 2)
        }
    }

    @Test func aKeptFilterIsShownInTheHeader() {
        for (columns, rows) in Self.sizes {
            let frame = F.render(Self.state(filter: "gam", front: .watchlist), columns: columns, rows: rows)
            Snapshot.expect(frame, matches: "filtered-\(columns)x\(rows)")
            #expect(frame.lines[0].contains("filter: gam"))
        }
    }

    /// A filter is outside text too: whatever was typed is shown spelled out, never sent to the terminal.
    @Test func theFilterIsSanitizedInTheHeader() {
        var state = Self.state(filter: "a", front: .watchlist)
        state.filter = "a\u{1B}[2J"
        let frame = F.render(state, columns: 100, rows: 30)
        #expect(!frame.lines[0].contains("\u{1B}"))
    }
}
