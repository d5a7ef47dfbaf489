/// Everything the user can ask of the watchlist screen. `KeyMap` turns keys into these.
public enum WatchlistAction: Sendable, Hashable {
    case moveUp, moveDown, pageUp, pageDown, moveToTop, moveToBottom
    case beginAdd
    case inputCharacter(Character)
    case inputBackspace
    case submitInput
    case cancelInput
    case removeSelected
    case undoRemove
    case cycleSort
    case toggleHelp
    /// Opens (and refreshes) or closes the accounts panel.
    case toggleAccounts
    /// Esc: closes the accounts panel when it is open, else dismisses the status message.
    case dismiss
    /// Opens or closes the message log (`m`).
    case toggleMessageLog
    case quit
    // Lists
    case nextList, previousList
    /// `1`…`9`: the list at this index (from 0).
    case showList(Int)
    case openListMenu, closeListMenu
    case menuMove(by: Int)
    /// Enter in the menu: show the highlighted list.
    case menuShowSelected
    case menuNewList, menuRenameList, menuDeleteList
    /// `J` / `K` in the menu: move the highlighted list down or up.
    case menuReorder(by: Int)
    case confirmDelete, cancelDelete
    /// Enter on a row: the symbol across every broker; Esc or Enter goes back.
    case openDetail, closeDetail
}
