import Interactors
import Locking

/// The latest view state, handed from the interactor (any thread) to the UI thread that draws it.
/// Only the newest value matters: the renderer draws whatever is here when its frame comes up.
final class ViewStateBox: Sendable {
    private let value: Locked<WatchlistViewState>

    init(_ initial: WatchlistViewState) { value = Locked(initial) }

    var current: WatchlistViewState { value.withLock { $0 } }
    func set(_ state: WatchlistViewState) { value.withLock { $0 = state } }
}
