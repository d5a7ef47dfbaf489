import Domain
import Foundation
import Interactors
import TerminalKit
import Testing
import TerminalUI

/// What a frame showed of the table, so that quotes only for rows off the screen need no frame.
@Suite struct RowsOnScreenTests {
    typealias F = WatchlistFixture

    /// Renders `state` as the app's frame loop does (the viewport kept from the frame before) and makes
    /// `RowsOnScreen` of what it drew. The fixture's 12 rows are AAPL, MSFT, NVDA and ZZZZ at three
    /// brokers each; an 80x10 terminal shows six of them.
    static func drawn(
        _ state: WatchlistViewState, columns: Int = 80, rows: Int = 10, selecting selected: Int? = nil, after previous: RowsOnScreen? = nil
    ) -> RowsOnScreen? {
        var viewport = TableViewport()
        var layout = WatchlistLayout()
        var state = state
        if let selected { state.selectedIndex = selected }
        _ = WatchlistScreen.render(state, size: ScreenSize(columns: columns, rows: rows), now: F.now, options: F.utc, viewport: &viewport, layout: &layout)
        return RowsOnScreen(state, layout: layout, now: F.now, previous: previous)
    }

    static func update(_ symbol: String, broker: ServiceBranding = F.beta) -> MarketUpdate {
        MarketUpdate(quotes: [QuoteKey(brandID: broker.id, symbol: symbol): CommonQuote(symbol: symbol, last: 1, timestamp: F.now)])
    }

    @Test func theTopOfTheListIsOnScreenAndTheRestIsNot() throws {
        let shown = try #require(Self.drawn(F.state()))
        #expect(shown == RowsOnScreen(symbols: ["AAPL", "MSFT"], flashEnds: nil))
        #expect(shown.needsFrame(for: Self.update("MSFT"), at: F.now))
        #expect(!shown.needsFrame(for: Self.update("NVDA"), at: F.now))
        #expect(!shown.needsFrame(for: Self.update("ZZZZ"), at: F.now.addingTimeInterval(60)))
        // A row's error is shown on its row like a price.
        #expect(shown.needsFrame(for: MarketUpdate(failures: [QuoteKey(brandID: F.gamma.id, symbol: "AAPL"): .unknownSymbol("AAPL")]), at: F.now))
        #expect(!shown.needsFrame(for: MarketUpdate(failures: [QuoteKey(brandID: F.gamma.id, symbol: "ZZZZ"): .unknownSymbol("ZZZZ")]), at: F.now))
    }

    /// NVDA at Alpha changed 0.4 s ago and flashes for 1 s: the first quote after that, for any row, asks
    /// for the frame that draws it plain.
    @Test func aRowThatFlashesOnScreenAsksForTheFrameAfterItsFlash() throws {
        let shown = try #require(Self.drawn(F.state(), selecting: 7))
        #expect(shown.symbols == ["AAPL", "MSFT", "NVDA"])
        let ends = try #require(shown.flashEnds)
        #expect(abs(ends.timeIntervalSince(F.now) - 0.6) < 0.000_001)
        #expect(!shown.needsFrame(for: Self.update("ZZZZ"), at: F.now.addingTimeInterval(0.59)))
        #expect(shown.needsFrame(for: Self.update("ZZZZ"), at: F.now.addingTimeInterval(0.61)))
    }

    /// Cross-broker figures read every broker of a symbol: a row on screen changes with a quote of its
    /// symbol at a broker whose row is off the screen.
    @Test func aSymbolOnScreenCountsAtEveryBroker() throws {
        // Eight rows show four of the table's: AAPL at its three brokers, MSFT at Alpha.
        let shown = try #require(Self.drawn(F.state(), rows: 8))
        #expect(shown.symbols == ["AAPL", "MSFT"])
        #expect(shown.needsFrame(for: Self.update("MSFT", broker: F.gamma), at: F.now))
    }

    @Test func aScreenInFrontOrNoTableShowsNoRowsToGoBy() {
        #expect(Self.drawn(F.state(front: .help)) == nil)
        #expect(Self.drawn(F.state(), columns: 20, rows: 5) == nil)
    }

    /// The frame before only saves work: a frame that drew other rows says so, one that drew the same
    /// says the same.
    @Test func aFrameAfterAnotherSaysWhatItDrewItself() throws {
        let top = try #require(Self.drawn(F.state()))
        let bottom = try #require(Self.drawn(F.state(), selecting: 11, after: top))
        #expect(bottom == Self.drawn(F.state(), selecting: 11))
        #expect(bottom.symbols.contains("ZZZZ"))
        #expect(!bottom.symbols.contains("AAPL"))
        #expect(Self.drawn(F.state(), after: bottom) == top)
        #expect(Self.drawn(F.state(), after: top) == top)
    }
}
