import Foundation
import Interactors

/// The whole watchlist screen as a pure function of the view state, the terminal size and the time:
///
///     row 0        header: name, DEMO badge, symbol count, sort, clock
///     row 1        column headings (and "13-24 of 40" when the rows do not fit)
///     rows 2…n-3   the table, from state.scrollOffset; the selected row in reverse video
///     row n-2      status: the message, or the add prompt
///     row n-1      footer: broker states and key hints
///
/// The help overlay is drawn over everything between header and footer.
public enum WatchlistScreen {
    public static let minimumSize = ScreenSize(columns: 40, rows: 8)

    /// Header, column headings, status line and footer.
    static let chromeRows = 4

    /// Draws the whole screen for a state. Handles too-small terminals, the add prompt, the help overlay.
    public static func render(
        _ state: WatchlistViewState, size: ScreenSize, now: Date, options: RenderOptions = .init()
    ) -> ScreenBuffer {
        let size = ScreenSize(columns: max(0, size.columns), rows: max(0, size.rows))
        var buffer = ScreenBuffer(size: size)
        let palette = Palette(options)
        guard fits(size) else {
            TooSmallNotice(minimum: minimumSize, palette: palette).draw(into: &buffer)
            return buffer
        }
        let statusRow = size.rows - 2
        let footerRow = size.rows - 1
        HeaderBar(state: state, now: now, options: options, palette: palette).draw(into: &buffer, row: 0)
        let panelHeight = state.accounts.map { AccountsPanelView.height(of: $0, available: statusRow - 2) } ?? 0
        WatchlistTable(state: state, now: now, palette: palette)
            .draw(into: &buffer, headingRow: 1, rows: 2..<(statusRow - panelHeight))
        if let panel = state.accounts, panelHeight > 0 {
            AccountsPanelView(panel: panel, palette: palette).draw(into: &buffer, rows: (statusRow - panelHeight)..<statusRow)
        }
        StatusLine(state: state, palette: palette).draw(into: &buffer, row: statusRow)
        BrokerFooter(state: state, palette: palette, now: now).draw(into: &buffer, row: footerRow)
        if state.mode == .help {
            HelpOverlay(palette: palette).draw(into: &buffer, rows: 1..<footerRow)
        }
        return buffer
    }

    /// How many table rows fit at this size (the interactor needs it for paging/scrolling).
    public static func visibleTableRows(for size: ScreenSize) -> Int {
        fits(size) ? size.rows - chromeRows : 0
    }

    /// Table rows that fit with the accounts panel open (it takes rows from the table).
    public static func visibleTableRows(for size: ScreenSize, accounts: AccountsPanel?) -> Int {
        let rows = visibleTableRows(for: size)
        return rows - (accounts.map { AccountsPanelView.height(of: $0, available: rows) } ?? 0)
    }

    private static func fits(_ size: ScreenSize) -> Bool {
        size.columns >= minimumSize.columns && size.rows >= minimumSize.rows
    }
}
