import Domain
import Interactors
import TerminalKit
import Testing

/// The `/` filter: the matcher, then the prompt driving the table.
@Suite struct RowFilterTests {
    @Test func substringIgnoresCase() {
        #expect(RowFilter.match("aap", in: ["AAPL", "Alpha", "alpha"]) == .substring)
        #expect(RowFilter.match("PHA", in: ["MSFT", "Alpha Demo"]) == .substring)
        #expect(RowFilter.match("demo-b", in: ["MSFT", "Beta Demo", "demo-beta"]) == .substring)
    }

    @Test func fuzzyKeepsTheQuerysCharactersInOrder() {
        #expect(RowFilter.match("aal", in: ["AAPL"]) == .fuzzy)
        #expect(RowFilter.match("gmfl", in: ["NVDA", "Gamma Flaky"]) == .fuzzy)
        #expect(RowFilter.match("lpa", in: ["AAPL"]) == nil, "order matters")
        #expect(RowFilter.match("aapll", in: ["AAPL"]) == nil, "each character once")
        #expect(RowFilter.match("xyz", in: ["AAPL", "Alpha", "alpha"]) == nil)
    }

    @Test func anEmptyQueryKeepsEverything() {
        #expect(RowFilter.match("", in: ["AAPL"]) == .substring)
        #expect(RowFilter.match("  ", in: ["AAPL"]) == .substring)
        #expect(RowFilter.match(" aap ", in: ["AAPL"]) == .substring, "spaces around are not part of it")
    }

    @Test func substringMatchesComeBeforeFuzzyOnesEachInTableOrder() {
        let zed = ServiceBranding(id: "zed", name: "Zed", glyph: "z", color: .cyan)
        let slots = ["AXP", "MAP", "APD", "SPY"].enumerated().map { index, symbol in
            WatchlistRows.Slot(key: QuoteKey(brandID: "zed", symbol: symbol), branding: zed, entry: index)
        }
        // "ap" is in MAP and APD; AXP has an a and then a p.
        #expect(RowFilter.filter(slots, by: "ap").map(\.key.symbol) == ["MAP", "APD", "AXP"])
        #expect(RowFilter.filter(slots, by: "sy").map(\.key.symbol) == ["SPY"])
        // Every row's broker is Zed: "ZED" keeps them all, in table order.
        #expect(RowFilter.filter(slots, by: "ZED").map(\.key.symbol) == ["AXP", "MAP", "APD", "SPY"])
        #expect(RowFilter.filter(slots, by: "qq").isEmpty)
    }

    @Test func typingFiltersEnterKeepsAndEscClears() {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["AAPL", "MSFT", "NVDA"])
        driver.press(.character("/"))
        #expect(driver.state.front == .filtering(TextPrompt(text: "", limit: 40)))
        driver.type("ms")
        #expect(driver.state.rows.map(\.id) == ["alpha:MSFT", "beta:MSFT"])
        #expect(driver.state.viewState().filter == "ms")
        driver.press(.enter)
        #expect(driver.state.front == .watchlist)
        #expect(driver.state.currentFilter == "ms")
        #expect(driver.state.rows.count == 2)
        #expect(driver.state.message?.text == "Filter ms: 2 rows · Esc clears it")
        // Keys work on the filtered table; Esc clears the filter.
        driver.press(.down)
        #expect(driver.state.selectedRow?.id == "beta:MSFT")
        driver.press(.escape)
        #expect(driver.state.currentFilter == nil)
        #expect(driver.state.rows.count == 6)
        #expect(driver.state.selectedRow?.id == "beta:MSFT", "the selected row stays selected")
        // Esc in the prompt clears too.
        driver.press(.character("/"))
        driver.type("nv")
        driver.press(.escape)
        #expect(driver.state.currentFilter == nil)
        #expect(driver.state.front == .watchlist)
        #expect(driver.state.rows.count == 6)
    }

    @Test func theBrokerMatchesTooAndTheSelectionStaysSensible() {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["AAPL", "MSFT"])
        driver.press(.down)  // beta:AAPL
        driver.press(.character("/"))
        driver.type("beta")
        #expect(driver.state.rows.map(\.id) == ["beta:AAPL", "beta:MSFT"])
        #expect(driver.state.selectedRow?.id == "beta:AAPL", "the selected row still matches, so it stays selected")
        driver.type("zzz")
        #expect(driver.state.rows.isEmpty)
        #expect(driver.state.selectedRow == nil)
        driver.press(.backspace, .backspace, .backspace)
        #expect(driver.state.selectedRow?.id == "beta:AAPL", "back when the filter lets it through again")
        driver.press(.backspace, .backspace, .backspace, .backspace)
        driver.type("alp")
        #expect(driver.state.selectedRow?.id == "alpha:AAPL", "a row that no longer matches gives way to the first that does")
        // ↑ ↓ move among the rows that match while typing.
        driver.press(.down)
        #expect(driver.state.selectedRow?.id == "alpha:MSFT")
    }

    @Test func eachListHasItsOwnFilter() {
        var driver = AppStateDriver(symbols: ["AAPL", "MSFT"])
        driver.press(.character("/"))
        driver.type("aapl")
        driver.press(.enter)
        driver.press(.character("W"), .character("n"))
        driver.type("Tech")
        driver.press(.enter)
        #expect(driver.state.currentListName == "Tech")
        #expect(driver.state.currentFilter == nil)
        driver.add("NVDA TSLA")
        #expect(driver.state.rows.count == 2)
        driver.press(.tab)
        #expect(driver.state.currentListName == "Watchlist")
        #expect(driver.state.currentFilter == "aapl")
        #expect(driver.state.rows.map(\.key.symbol) == ["AAPL"])
        // `/` again starts from the list's filter.
        driver.press(.character("/"))
        #expect(driver.state.front == .filtering(TextPrompt(text: "aapl", limit: 40)))
    }

    @Test func tCyclesThemes() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        #expect(driver.state.theme == .dark)
        var seen: [ThemeName] = []
        for _ in ThemeName.allCases {
            driver.press(.character("T"))
            seen.append(driver.state.theme)
        }
        #expect(seen == [.light, .highContrast, .mono, .dark])
        #expect(driver.state.viewState().theme == .dark)
        #expect(driver.state.message?.text == "Theme: dark · T for the next one")
    }

    @Test func mouseActionsSelectScrollAndSwitchListsOnlyOnTheTable() {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["AAPL", "MSFT", "NVDA"])
        driver.send(.mouse(.selectRow(3)))
        #expect(driver.state.selectedRow?.id == "beta:MSFT")
        driver.send(.mouse(.scroll(3)))
        #expect(driver.state.selectedIndex == 5, "stops at the last row")
        driver.send(.mouse(.scroll(-3)))
        #expect(driver.state.selectedIndex == 2)
        driver.press(.character("?"))
        driver.send(.mouse(.selectRow(0)))
        #expect(driver.state.selectedIndex == 2, "help is in front")
    }
}
