import Domain

/// What a screen asks of the app state, which owns the lists, the messages and the effects. A screen's
/// `update` changes the screen and returns these; `AppState` carries them out in order.
public enum ScreenRequest: Sendable, Hashable {
    /// Back to the table underneath.
    case close
    case say(StatusMessage.Kind, String)
    case persist(WatchlistEdit)
    /// Show the list at this index (from 0).
    case showList(Int)
    /// `u`: bring back the last removed symbol or deleted list.
    case undo
    /// Open the order ticket for `symbol`, at `brokerID` when it trades, with `quantity` filled in.
    case openTicket(symbol: String, side: OrderSide, brokerID: String?, quantity: String)
    /// Put this screen in front (the positions screen opens the order ticket).
    case open(FrontScreen)
    /// An effect only the screen knows to ask for (send an order, cancel one, fetch the portfolio).
    case effect(AppEffect)
}
