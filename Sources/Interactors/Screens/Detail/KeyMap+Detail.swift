import TerminalKit

extension KeyMap {
    /// Like an overlay: Esc, Enter or q goes back to the list, where the same row is selected.
    static func detailAction(for key: KeyPress) -> WatchlistAction? {
        switch key {
        case .escape, .enter, .character("q"): .closeDetail
        default: nil
        }
    }
}
