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
}
