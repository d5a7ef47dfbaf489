import Domain

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
    /// Ask every trading broker (or those named) for positions, orders and balances; each answers as
    /// `.portfolio`.
    case fetchPortfolio
    /// Send an order; the broker's answer comes back as `.orderPlaced`.
    case placeOrder(brokerID: String, OrderRequest)
    /// Ask the broker to cancel an open order; the answer comes back as `.orderCancelled`.
    case cancelOrder(brokerID: String, OrderID)
    case bell
    /// Apply an edit to the saved alerts; the result comes back as `.alertsPersisted`.
    case persistAlerts(AlertEdit)
    /// Show a desktop notification (an alert fired and `alerts.desktop` is on).
    case notify(DesktopNotification)
    case quit
}
