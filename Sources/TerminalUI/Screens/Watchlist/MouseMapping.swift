import Interactors
import TerminalKit

/// A mouse event on the watchlist as the action it means, given where the last frame drew things: a
/// press on a table row selects it, a press on a list's tab shows that list, the wheel moves the
/// selection a few rows. Anything else means nothing.
public enum MouseMapping {
    /// Rows one wheel notch moves, as most terminal programs scroll.
    public static let wheelRows = 3

    public static func action(for event: MouseEvent, layout: WatchlistLayout) -> WatchlistAction? {
        switch event.kind {
        case .wheelUp:
            return layout.tableRows.isEmpty ? nil : .scroll(-wheelRows)
        case .wheelDown:
            return layout.tableRows.isEmpty ? nil : .scroll(wheelRows)
        case .press:
            if layout.tableRows.contains(event.row) {
                let index = layout.firstRow + event.row - layout.tableRows.lowerBound
                return index < layout.rowCount ? .selectRow(index) : nil
            }
            if event.row == WatchlistLayout.headerRow, let tab = layout.tabs.first(where: { $0.columns.contains(event.column) }) {
                return .showList(tab.list)
            }
            return nil
        }
    }
}
