import Locking

/// The app state as the runtime leaves it after each event, read in place by the thread that draws.
///
/// Why not hand the UI a view state after every event: a view state shares the stores' storage, so the
/// next quote copied every row's entry (copy-on-write) to keep that snapshot intact, and the view was
/// built again for each batch the feed delivered — a dozen times per frame at 1,000 events/s for the one
/// frame that is drawn. Here the runtime changes the state under a lock and only signals; the UI thread
/// builds the view once per frame, and the stores copy at most once per frame (after the view it took).
public final class LiveAppState: Sendable {
    private let state: Locked<AppState>

    public init(_ initial: AppState) {
        state = Locked(initial)
    }

    /// What the screen shows now. Holds the lock while the view is built (a few microseconds), which is
    /// as long as an event's update can wait.
    public func viewState() -> WatchlistViewState {
        state.withLock { $0.viewState() }
    }

    /// Runs `body` on the state under the lock. The runtime's only way in: `body` must not block or call
    /// out (effects run after it returns), since the UI thread may be waiting to draw.
    func update<Result>(_ body: (inout AppState) -> Result) -> Result {
        state.withLock { body(&$0) }
    }
}
