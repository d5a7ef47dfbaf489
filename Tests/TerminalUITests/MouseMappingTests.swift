import Interactors
import TerminalKit
import Testing
import TerminalUI

/// Clicks and the wheel as actions, from where the frame drew rows and tabs.
@Suite struct MouseMappingTests {
    typealias F = WatchlistFixture

    static func layout(of state: WatchlistViewState, columns: Int = 100, rows: Int = 30, scrolledTo first: Int = 0) -> WatchlistLayout {
        var viewport = TableViewport()
        var layout = WatchlistLayout()
        if first > 0 {
            var scrolled = state
            scrolled.selectedIndex = first
            _ = WatchlistScreen.render(scrolled, size: ScreenSize(columns: columns, rows: rows), now: F.now, options: F.utc, viewport: &viewport)
        }
        _ = WatchlistScreen.render(state, size: ScreenSize(columns: columns, rows: rows), now: F.now, options: F.utc, viewport: &viewport, layout: &layout)
        return layout
    }

    @Test func aClickOnARowSelectsIt() {
        let layout = Self.layout(of: F.state())
        #expect(layout.tableRows.lowerBound == 2)
        #expect(MouseMapping.action(for: MouseEvent(.press, column: 10, row: 2), layout: layout) == .selectRow(0))
        #expect(MouseMapping.action(for: MouseEvent(.press, column: 50, row: 7), layout: layout) == .selectRow(5))
        // Below the last row, on the headings, on the footer: nothing.
        #expect(MouseMapping.action(for: MouseEvent(.press, column: 10, row: 2 + F.rows.count), layout: layout) == nil)
        #expect(MouseMapping.action(for: MouseEvent(.press, column: 10, row: 1), layout: layout) == nil)
        #expect(MouseMapping.action(for: MouseEvent(.press, column: 10, row: 29), layout: layout) == nil)
    }

    @Test func aClickOnAScrolledTableCountsFromTheFirstRowShown() {
        let layout = Self.layout(of: F.state(), columns: 80, rows: 10, scrolledTo: 11)
        #expect(layout.firstRow > 0)
        #expect(MouseMapping.action(for: MouseEvent(.press, column: 3, row: 2), layout: layout) == .selectRow(layout.firstRow))
    }

    @Test func theWheelScrolls() {
        let layout = Self.layout(of: F.state())
        #expect(MouseMapping.action(for: MouseEvent(.wheelDown, column: 0, row: 0), layout: layout) == .scroll(MouseMapping.wheelRows))
        #expect(MouseMapping.action(for: MouseEvent(.wheelUp, column: 0, row: 0), layout: layout) == .scroll(-MouseMapping.wheelRows))
    }

    @Test func aClickOnATabShowsItsList() throws {
        var state = F.state()
        state.listNames = ["Watchlist", "Tech", "Indexes"]
        state.currentList = 0
        let layout = Self.layout(of: state, columns: 120)
        #expect(layout.tabs.map(\.list) == [0, 1, 2])
        let frame = F.render(state, columns: 120, rows: 30)
        let tech = try #require(layout.tabs.first { $0.list == 1 })
        // The tab's columns are where its name is drawn.
        #expect(frame.lines[0].dropFirst(tech.columns.lowerBound).hasPrefix(" Tech "))
        #expect(MouseMapping.action(for: MouseEvent(.press, column: tech.columns.lowerBound + 2, row: 0), layout: layout) == .showList(1))
        #expect(MouseMapping.action(for: MouseEvent(.press, column: 1, row: 0), layout: layout) == nil)
    }

    @Test func nothingIsHitWhileAScreenIsInFront() {
        let layout = Self.layout(of: F.state(front: .help))
        #expect(layout.tableRows.isEmpty)
        #expect(MouseMapping.action(for: MouseEvent(.press, column: 10, row: 3), layout: layout) == nil)
        #expect(MouseMapping.action(for: MouseEvent(.wheelDown, column: 10, row: 3), layout: layout) == nil)
    }
}
