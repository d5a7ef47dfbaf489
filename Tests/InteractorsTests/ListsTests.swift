import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing

/// Several named lists (issue 14, item 6), as key sequences into `AppState`.
@Suite struct ListsTests {
    /// Opens the menu, presses `n`, types `name` and Enter.
    func create(_ name: String, in driver: inout AppStateDriver) -> [AppEffect] {
        driver.press(.character("W"), .character("n")) + name.flatMap { driver.send(.key(.character($0))) } + driver.press(.enter)
    }

    @Test func aNewListIsShownAndFollowedAndTabSwitchesBack() {
        var driver = AppStateDriver(symbols: ["AAPL", "MSFT"])
        driver.send(.started)
        #expect(create("Indexes", in: &driver) == [.unfollow(["AAPL", "MSFT"])])
        #expect(driver.state.lists.map(\.name) == ["Watchlist", "Indexes"])
        #expect(driver.state.currentListName == "Indexes")
        #expect(driver.state.front == .watchlist)
        #expect(driver.state.message?.text == "Created list Indexes · a adds symbols to it")
        #expect(driver.add("^gspc ^dji") == [.follow(["^GSPC", "^DJI"]), .fetchSnapshot(["^GSPC", "^DJI"])])
        #expect(driver.book.symbols(of: "Indexes") == ["^GSPC", "^DJI"])

        let back = driver.press(.tab)
        #expect(back == [.unfollow(["^GSPC", "^DJI"]), .follow(["AAPL", "MSFT"]), .fetchSnapshot(["AAPL", "MSFT"])])
        #expect(driver.state.currentListName == "Watchlist")
        #expect(driver.state.message?.text == "Watchlist: 2 symbols")
        driver.press(.backTab)
        #expect(driver.state.currentListName == "Indexes")
        driver.press(.character("1"))
        #expect(driver.state.currentListName == "Watchlist")
        driver.press(.character("5"))
        #expect(driver.state.message?.text == "There is no list 5; W makes one")
        #expect(driver.followedByEffects == ["AAPL", "MSFT"])
    }

    @Test func aBadOrDuplicateNameKeepsThePromptWithTheReason() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        _ = create("watchlist", in: &driver)
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 0, step: .naming(.create, TextPrompt(text: "watchlist", error: "a list named 'watchlist' exists already; pick another name", limit: 100)))))
        for _ in 0..<9 { driver.press(.backspace) }
        driver.press(.enter)
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 0, step: .naming(.create, TextPrompt(text: "", error: "type a name for the list", limit: 100)))))
        driver.press(.escape)
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 0)), "Esc goes back to the menu")
        #expect(driver.state.lists.count == 1)
    }

    @Test func renamingKeepsTheListShownAndItsSymbols() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        driver.press(.character("W"), .character("r"))
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 0, step: .naming(.rename("Watchlist"), TextPrompt(text: "Watchlist", error: nil, limit: 100)))))
        for _ in 0..<9 { driver.press(.backspace) }
        for character in "Tech" { driver.send(.key(.character(character))) }
        driver.press(.enter)
        #expect(driver.state.lists == [NamedWatchlist(name: "Tech", symbols: ["AAPL"])])
        #expect(driver.state.currentListName == "Tech")
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 0)))
    }

    @Test func deletingAsksFirstUndoBringsItBackAndTheLastListStays() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        driver.send(.started)
        _ = create("Tech", in: &driver)
        driver.add("nvda")
        driver.press(.character("W"))
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 1)))
        driver.press(.character("d"))
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 1, step: .confirmingDelete("Tech"))))
        driver.press(.character("n"))
        #expect(driver.state.lists.count == 2, "n keeps it")
        driver.press(.character("d"))
        let deleted = driver.press(.character("y"))
        #expect(deleted == [.unfollow(["NVDA"]), .follow(["AAPL"]), .fetchSnapshot(["AAPL"])])
        #expect(driver.state.lists.map(\.name) == ["Watchlist"])
        #expect(driver.state.currentListName == "Watchlist")
        #expect(driver.state.message?.text == "Deleted list Tech · u to undo")

        driver.press(.character("d"))
        #expect(driver.state.message?.text == "the last list cannot be deleted; create another one first")
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 0)))

        driver.press(.character("u"))
        #expect(driver.state.lists == [NamedWatchlist(name: "Watchlist", symbols: ["AAPL"]), NamedWatchlist(name: "Tech", symbols: ["NVDA"])])
        #expect(driver.state.message?.text == "Restored list Tech")
    }

    @Test func reorderingMovesTheHighlightedList() {
        var driver = AppStateDriver(symbols: ["AAPL"])
        _ = create("Tech", in: &driver)
        _ = create("Crypto", in: &driver)
        driver.press(.character("W"))
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 2)))
        driver.press(.character("K"), .character("K"))
        #expect(driver.state.lists.map(\.name) == ["Crypto", "Watchlist", "Tech"])
        #expect(driver.state.front == .listMenu(ListMenuScreen(selected: 0)))
        driver.press(.character("j"), .enter)
        #expect(driver.state.currentListName == "Watchlist")
        #expect(driver.state.front == .watchlist)
    }

    /// Another window deleted the list this one shows: the edit is refused with the reason and the
    /// neighbouring list is shown.
    @Test func anEditOfAListDeletedElsewhereIsRefusedAndTheNeighbourIsShown() {
        var state = AppState(
            brokers: [alpha], book: WatchlistBook(lists: [NamedWatchlist(name: "A", symbols: ["AAPL"]), NamedWatchlist(name: "B", symbols: ["IBM"])]),
            settings: AppState.Settings(isDemo: false))
        _ = state.update(.key(.tab), at: t0)
        #expect(state.currentListName == "B")
        let outcome = WatchlistEditOutcome(lists: [NamedWatchlist(name: "A", symbols: ["AAPL"])], refusal: .noSuchList("B"))
        _ = state.update(.persisted(.remove("IBM", from: "B"), .success(outcome)), at: t0)
        #expect(state.currentListName == "A")
        #expect(state.message?.text == "Could not remove IBM: there is no list named 'B' any more (renamed or deleted in another window?)")
    }
}
