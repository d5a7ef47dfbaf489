import TerminalKit

/// The keys of the lists menu and of its delete confirmation (the name prompt types like the add prompt).
extension KeyMap {
    static func listMenuAction(for key: KeyPress) -> WatchlistAction? {
        switch key {
        case .character("j"), .down: .menuMove(by: 1)
        case .character("k"), .up: .menuMove(by: -1)
        case .enter: .menuShowSelected
        case .character("n"), .character("a"): .menuNewList
        case .character("r"): .menuRenameList
        case .character("d"), .delete: .menuDeleteList
        case .character("J"): .menuReorder(by: 1)
        case .character("K"): .menuReorder(by: -1)
        case .character("u"): .undoRemove
        case .character("W"), .character("q"), .escape: .closeListMenu
        default: nil
        }
    }

    static func confirmAction(for key: KeyPress) -> WatchlistAction? {
        switch key {
        case .character("y"), .character("Y"): .confirmDelete
        case .character("n"), .character("N"), .escape: .cancelDelete
        default: nil
        }
    }
}
