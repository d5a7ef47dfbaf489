import Domain
import Foundation
import Interactors
import TerminalKit
import Testing
import TerminalUI

/// The header's list tabs and the lists menu (issue 14, item 6), at three sizes.
@Suite struct ListsScreenTests {
    typealias F = WatchlistFixture
    static let sizes = [(120, 35), (80, 24), (60, 20)]

    func state(front: FrontScreen = .watchlist) -> WatchlistViewState {
        var state = F.state(front: front, message: nil)
        state.listNames = ["Watchlist", "Tech", "Indexes & ETFs"]
        state.listSizes = [4, 12, 3]
        state.currentList = 1
        return state
    }

    @Test func tabsInTheHeader() {
        for (columns, rows) in Self.sizes {
            let frame = F.render(state(), columns: columns, rows: rows)
            Snapshot.expect(frame, matches: "tabs-\(columns)x\(rows)")
        }
        let wide = F.render(state(), columns: 120, rows: 35)
        #expect(wide.lines[0].contains(" Watchlist  Tech  Indexes & ETFs "))
        #expect(wide.cells(showing: " Tech ", row: 0).allSatisfy { $0.style.background == .cyan }, "the shown list stands out")
        // Too narrow for every tab: the shown one, with where it is.
        #expect(F.render(state(), columns: 40, rows: 8).lines[0].contains(" Tech 2/3 "))
    }

    @Test func theListsMenu() {
        for (columns, rows) in Self.sizes {
            Snapshot.expect(F.render(state(front: .listMenu(ListMenuScreen(selected: 2))), columns: columns, rows: rows), matches: "list-menu-\(columns)x\(rows)")
        }
        let frame = F.render(state(front: .listMenu(ListMenuScreen(selected: 2))), columns: 80, rows: 24)
        #expect(frame.lines.contains { $0.contains("▸ 2  Tech") })
        #expect(frame.lines[23].contains("Enter show"), "the footer lists the menu's keys")
    }

    @Test func namingAndConfirmingUseTheStatusLine() {
        let naming = F.render(state(front: .listMenu(ListMenuScreen(selected: 2, step: .naming(.create, TextPrompt(text: "Tech", error: "a list named 'Tech' exists already; pick another name"))))), columns: 80, rows: 24)
        Snapshot.expect(naming, matches: "list-naming-80x24")
        #expect(naming.lines[22].hasPrefix(" New list: Tech"))
        #expect(naming.lines.joined().contains("exists already; pick another name"))
        let renaming = F.render(state(front: .listMenu(ListMenuScreen(selected: 2, step: .naming(.rename("Tech"), TextPrompt(text: "Tech"))))), columns: 80, rows: 24)
        #expect(renaming.lines[22].hasPrefix(" Rename Tech to: Tech"))
        let confirming = F.render(state(front: .listMenu(ListMenuScreen(selected: 2, step: .confirmingDelete("Tech")))), columns: 80, rows: 24)
        #expect(confirming.lines[22].hasPrefix(" Delete list Tech and its 12 symbols? y delete · n keep"))
    }
}
