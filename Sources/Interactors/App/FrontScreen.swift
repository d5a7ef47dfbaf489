/// What is in front and takes the keys. The watchlist table is always underneath: closing any of these
/// shows it again with the same selection. A new screen is a new case whose value (its state, `action`
/// for a key, `update`) lives in its own folder under `Screens/`, with its view under TerminalUI's.
public indirect enum FrontScreen: Sendable, Hashable {
    /// The table itself.
    case watchlist
    /// The table with its "add symbols" prompt.
    case adding(TextPrompt)
    /// The table with its filter prompt (`/`), which filters as the user types.
    case filtering(TextPrompt)
    case help
    /// The last messages with their time (`m`).
    case messageLog
    /// The lists menu (`W`) with its name prompt and delete confirmation.
    case listMenu(ListMenuScreen)
    /// One symbol across every broker (Enter on a row).
    case detail(DetailScreen)
    /// Positions, P&L and balances across trading brokers (`P`).
    case positions(PositionsScreen)
    /// Open and past orders across trading brokers (`O`).
    case orders(OrdersScreen)
    /// An order ticket for one symbol (`B` / `S`).
    case ticket(OrderTicket)
    /// Setting an alert on the selected row (`!`).
    case alertDialog(AlertDialog)
    /// Fired and set alerts (`L`).
    case alertLog(AlertLogScreen)
}
