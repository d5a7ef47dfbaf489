import Foundation
import Interactors
import TerminalKit

/// The whole watchlist screen as a pure function of the view state, the terminal size and the time:
///
///     row 0        header: name, DEMO badge, symbol count, sort, clock
///     row 1        column headings (and "13-24 of 40" when the rows do not fit)
///     rows 2…       the table, scrolled so the selected row (reverse video) is on screen (TableViewport)
///     rows …n-2    status: the message, or the add prompt; one row, up to three when it is long
///     row n-1      footer: broker states and key hints
///
/// The help and message-log overlays are drawn over everything between header and footer.
public enum WatchlistScreen {
    public static let minimumSize = ScreenSize(columns: 40, rows: 8)

    /// Header, column headings, status line and footer.
    static let chromeRows = 4

    /// Draws the whole screen for a state, scrolled from the top as far as the selection needs.
    public static func render(
        _ state: WatchlistViewState, size: ScreenSize, now: Date, options: RenderOptions = .init()
    ) -> ScreenBuffer {
        var viewport = TableViewport()
        return render(state, size: size, now: now, options: options, viewport: &viewport)
    }

    /// Draws the whole screen for a state. Handles too-small terminals, the add prompt, the overlays.
    /// `viewport` is the table's scroll position from the previous frame; it is moved as little as needed
    /// to keep the selected row on screen.
    public static func render(
        _ state: WatchlistViewState, size: ScreenSize, now: Date, options: RenderOptions = .init(),
        viewport: inout TableViewport
    ) -> ScreenBuffer {
        var layout = WatchlistLayout()
        return render(state, size: size, now: now, options: options, viewport: &viewport, layout: &layout)
    }

    /// The same, also saying where the table's rows and the lists' tabs went (`layout`), so a click can
    /// be mapped to what it hit (`MouseMapping`).
    public static func render(
        _ state: WatchlistViewState, size: ScreenSize, now: Date, options: RenderOptions = .init(),
        viewport: inout TableViewport, layout: inout WatchlistLayout
    ) -> ScreenBuffer {
        var cache = WatchlistTableCache()
        return render(state, size: size, now: now, options: options, viewport: &viewport, layout: &layout, cache: &cache)
    }

    /// The same, redoing only the rows that changed since the frames `cache` kept (the render loop keeps
    /// it beside the viewport): what a frame of 1,000 rows costs when a few dozen moved. The frame is the
    /// same with any cache (`WatchlistTableCache`).
    public static func render(
        _ state: WatchlistViewState, size: ScreenSize, now: Date, options: RenderOptions = .init(),
        viewport: inout TableViewport, layout: inout WatchlistLayout, cache: inout WatchlistTableCache
    ) -> ScreenBuffer {
        layout = WatchlistLayout()
        let size = ScreenSize(columns: max(0, size.columns), rows: max(0, size.rows))
        var buffer = ScreenBuffer(size: size)
        let palette = cache.palette(options, theme: state.theme)
        buffer.colorDefinitions = palette.definitions
        guard fits(size) else {
            TooSmallNotice(minimum: minimumSize, palette: palette).draw(into: &buffer)
            return buffer
        }
        let market = options.market.map { cache.marketState($0, at: now) }
        let footerRow = size.rows - 1
        let statusRow = footerRow - statusHeight(of: state, size: size, now: now)
        // Full screens take the place of the table; header, status line and footer stay.
        switch state.front {
        case .detail where state.detail != nil, .positions, .orders:
            HeaderBar(state: state, now: now, options: options, palette: palette, market: market).draw(into: &buffer, row: 0, kept: &cache.header)
            switch state.front {
            case .positions(let screen):
                if let summary = state.positions {
                    PositionsView(summary: summary, selected: screen.selected, palette: palette).draw(into: &buffer, rows: 1..<statusRow)
                }
            case .orders(let screen):
                OrdersView(screen: screen, portfolio: state.portfolio, timeZone: options.timeZone, palette: palette).draw(into: &buffer, rows: 1..<statusRow)
            default:
                if let detail = state.detail {
                    DetailView(detail: detail, now: now, unicode: options.unicode, palette: palette).draw(into: &buffer, rows: 1..<statusRow)
                }
            }
            StatusLine(state: state, now: now, palette: palette).draw(into: &buffer, rows: statusRow..<footerRow)
            BrokerFooter(state: state, now: now, palette: palette).draw(into: &buffer, row: footerRow, kept: &cache.footer)
            return buffer
        default:
            break
        }
        let panelHeight = state.accounts.map { AccountsPanelView.height(of: $0, available: statusRow - 2) } ?? 0
        let tableRows = 2..<(statusRow - panelHeight)
        let first = viewport.scroll(toShow: state.selectedIndex, rowCount: state.rows.count, height: tableRows.count)
        let position = WatchlistTable(state: state, now: now, palette: palette, firstRow: first, market: market, unicode: options.unicode)
            .draw(into: &buffer, headingRow: 1, rows: tableRows, cache: &cache)
        let tabs = HeaderBar(state: state, now: now, options: options, palette: palette, position: position, market: market)
            .draw(into: &buffer, row: 0, kept: &cache.header)
        if state.front == .watchlist {
            layout = WatchlistLayout(tableRows: tableRows, firstRow: first, rowCount: state.rows.count, tabs: tabs)
        }
        if let panel = state.accounts, panelHeight > 0 {
            AccountsPanelView(panel: panel, palette: palette).draw(into: &buffer, rows: (statusRow - panelHeight)..<statusRow)
        }
        StatusLine(state: state, now: now, palette: palette).draw(into: &buffer, rows: statusRow..<footerRow)
        BrokerFooter(state: state, now: now, palette: palette).draw(into: &buffer, row: footerRow, kept: &cache.footer)
        switch state.front {
        case .help:
            HelpOverlay(keys: state.keys, palette: palette).draw(into: &buffer, rows: 1..<footerRow)
        case .messageLog:
            MessageLogOverlay(messages: state.messageLog, timeZone: options.timeZone, palette: palette)
                .draw(into: &buffer, rows: 1..<footerRow)
        case .listMenu(let menu):
            ListMenuOverlay(menu: menu, state: state, palette: palette).draw(into: &buffer, rows: 1..<statusRow)
        case .ticket(let ticket):
            TicketView(ticket: ticket, preview: state.ticketPreview, palette: palette).draw(into: &buffer, rows: 1..<statusRow)
        case .alertDialog(let dialog):
            AlertDialogView(dialog: dialog, palette: palette).draw(into: &buffer, rows: 1..<statusRow)
        case .alertLog(let screen):
            AlertLogView(
                screen: screen, alerts: state.alerts.alerts, log: state.alertLog, brokers: state.brokers.map(\.branding),
                timeZone: options.timeZone, palette: palette
            ).draw(into: &buffer, rows: 1..<footerRow)
        case .watchlist, .adding, .filtering, .detail, .positions, .orders:
            break
        }
        return buffer
    }

    /// Rows the status line takes: a long message wraps, but the table keeps at least one row.
    static func statusHeight(of state: WatchlistViewState, size: ScreenSize, now: Date) -> Int {
        StatusLine.height(of: state, columns: size.columns, now: now, available: size.rows - chromeRows)
    }

    /// How many table rows fit for this state: the accounts panel and a wrapped status message take rows
    /// from the table.
    public static func visibleTableRows(for size: ScreenSize, state: WatchlistViewState, now: Date) -> Int {
        guard fits(size) else { return 0 }
        let rows = size.rows - chromeRows + 1 - statusHeight(of: state, size: size, now: now)
        return rows - (state.accounts.map { AccountsPanelView.height(of: $0, available: rows) } ?? 0)
    }

    private static func fits(_ size: ScreenSize) -> Bool {
        size.columns >= minimumSize.columns && size.rows >= minimumSize.rows
    }
}
