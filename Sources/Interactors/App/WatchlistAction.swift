import Domain

/// What the user can ask of the watchlist table. `KeyMap` turns keys into these; the screens in front of
/// the table have their own actions (`ListMenuScreen.Action`, `DetailScreen.Action`, `TextPrompt.Action`).
public enum WatchlistAction: Sendable, Hashable {
    case moveUp, moveDown, pageUp, pageDown, moveToTop, moveToBottom
    case beginAdd
    case removeSelected
    case undoRemove
    case cycleSort
    /// `r`: the sort's order reversed.
    case reverseSort
    /// `c`: one row per (symbol, broker), or one per symbol across brokers.
    case toggleCrossBroker
    case toggleHelp
    /// Opens (and refreshes) or closes the accounts panel.
    case toggleAccounts
    /// Esc: closes the accounts panel when it is open, else dismisses the status message.
    case dismiss
    /// Opens the message log (`m`).
    case toggleMessageLog
    case quit
    // Lists
    case nextList, previousList
    /// `1`…`9`: the list at this index (from 0).
    case showList(Int)
    case openListMenu
    /// Enter on a row: the symbol across every broker.
    case openDetail
    /// `P`: positions and P&L; `O`: orders.
    case openPositions, openOrders
    /// `B` / `S`: the order ticket on the selected row.
    case trade(OrderSide)
    /// `!`: set an alert on the selected row; `L`: the alert log.
    case setAlert, openAlertLog
    /// `/`: the filter prompt; typing keeps only the rows that match.
    case beginFilter
    /// `T`: the next theme.
    case cycleTheme
    /// A click on a row: select the row at this index of the table (from 0).
    case selectRow(Int)
    /// The mouse wheel: move the selection by this many rows.
    case scroll(Int)
}
