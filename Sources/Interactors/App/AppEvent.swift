import Domain
import Stores
import TerminalKit

/// Facts the app state learns: a key, market data, results of effects, the terminal's size, time.
/// `AppState.update` is the only thing that turns them into state.
public enum AppEvent: Sendable {
    /// The screen is up: follow the list and ask every broker for a first snapshot.
    case started
    case key(KeyPress)
    /// A conflated batch from the market-data hub: streamed quotes, polled ones and snapshots alike.
    case market(MarketUpdate)
    case resize(ScreenSize)
    /// A second passed (info messages fade).
    case tick
    /// One broker's balances for the accounts panel.
    case accounts(AccountsPanelEntry)
    /// The watchlist file's answer to an edit: the list as it is now on disk (another instance's edits
    /// included), or why the edit was not saved.
    case persisted(WatchlistEdit, Result<WatchlistEditOutcome, WatchlistStoreError>)
    /// One trading broker's positions, orders and balances, or why it could not say.
    case portfolio(brokerID: String, Result<PortfolioSnapshot, BrokerError>)
    /// The broker's answer to an order the ticket sent.
    case orderPlaced(brokerID: String, OrderRequest, Result<Order, BrokerError>)
    /// The broker's answer to a cancel.
    case orderCancelled(brokerID: String, OrderID, Result<Void, BrokerError>)
    /// A broker changed an order on its own: a paper fill, an expiry at the close.
    case trading(TradingActivity)
    /// How a broker's quotes reach this process changed (the bus: leader, follower of whom, lost).
    case route(brokerID: String, QuoteRoute)
    /// The watchlist file's answer to an alert edit: the alerts as they are now on disk, or why not saved.
    case alertsPersisted(AlertEdit, Result<AlertEditOutcome, WatchlistStoreError>)
    /// A click or wheel turn that the view mapped to an action on the table (`MouseMapping`): select a
    /// row, scroll, show a list. Ignored while a screen is in front of the table.
    case mouse(WatchlistAction)
}
