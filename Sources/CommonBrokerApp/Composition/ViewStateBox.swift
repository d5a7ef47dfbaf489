import Interactors
import Locking

/// Where the UI thread finds the view it draws: the runtime's live state once there is one, a placeholder
/// before. The view is built when a frame is drawn, not when the state changes (`LiveAppState`).
final class ViewStateBox: Sendable {
    private let placeholder: WatchlistViewState
    private let source = Locked<LiveAppState?>(nil)

    init(_ placeholder: WatchlistViewState) { self.placeholder = placeholder }

    var current: WatchlistViewState { source.withLock { $0 }?.viewState() ?? placeholder }
    func show(_ live: LiveAppState) { source.withLock { $0 = live } }
}
