/// What the app state asks the runtime to do. The runtime is the only place effects happen; their
/// results come back as `AppEvent`s.
public enum AppEffect: Sendable, Hashable {
    /// Start following these symbols on the market feed (they were not followed).
    case follow(Set<String>)
    /// Stop following these symbols (they were followed).
    case unfollow(Set<String>)
    /// Apply an edit to the watchlist file; the result comes back as `.persisted`.
    case persist(WatchlistEdit)
    /// Ask every broker for a snapshot of these symbols now; the answers come through the feed, as `.market`.
    case fetchSnapshot([String])
    /// Ask every broker with accounts for balances; results come back as `.accounts`.
    case fetchAccounts
    /// The accounts panel closed: answers still on their way are not wanted.
    case stopFetchingAccounts
    case bell
    case quit
}
