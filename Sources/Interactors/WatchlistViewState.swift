import Domain
import Foundation
import Stores

/// How the watchlist is ordered. Ties always fall back to symbol, then brand id.
public enum SortOrder: String, Sendable, Hashable, CaseIterable {
    case symbol
    case changePercent
    case last

    public var label: String {
        switch self {
        case .symbol: "symbol"
        case .changePercent: "change %"
        case .last: "last"
        }
    }

    public var next: SortOrder {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// One (symbol, broker) row as the view needs it.
public struct WatchlistRow: Sendable, Hashable, Identifiable {
    public var key: QuoteKey
    public var branding: ServiceBranding
    public var quote: CommonQuote?
    /// Why this row has no (fresh) price: "unknown symbol", "reconnecting 3…", "unauthorized".
    public var error: String?
    /// When the last price change arrived (local clock), for the brief highlight.
    public var lastChangeAt: Date?
    /// Direction of that last change: +1 up, -1 down, 0 none yet.
    public var lastChangeDirection: Int
    /// When this row last received any quote (local clock), for staleness.
    public var receivedAt: Date?

    public var id: String { key.id }

    public init(
        key: QuoteKey, branding: ServiceBranding, quote: CommonQuote? = nil, error: String? = nil,
        lastChangeAt: Date? = nil, lastChangeDirection: Int = 0, receivedAt: Date? = nil
    ) {
        self.key = key
        self.branding = branding
        self.quote = quote
        self.error = error
        self.lastChangeAt = lastChangeAt
        self.lastChangeDirection = lastChangeDirection
        self.receivedAt = receivedAt
    }
}

/// A broker and how its connection is doing, for the footer.
public struct BrokerStatus: Sendable, Hashable {
    public var branding: ServiceBranding
    public var state: BrokerConnectionState
    /// Frames its stream skipped as undecodable; the footer shows a count above zero.
    public var skippedFrames: Int
    /// Its own connection, or the bus's (shown only when there is a bus).
    public var route: QuoteRoute

    public init(branding: ServiceBranding, state: BrokerConnectionState, skippedFrames: Int = 0, route: QuoteRoute = .direct) {
        self.branding = branding
        self.state = state
        self.skippedFrames = skippedFrames
        self.route = route
    }
}

/// One broker's part of the accounts panel.
public struct AccountsPanelEntry: Sendable, Hashable {
    public var branding: ServiceBranding
    public var balances: [AccountBalance]
    /// Why the balances could not be fetched (sanitized by the view).
    public var error: String?
    public var isLoading: Bool

    public init(branding: ServiceBranding, balances: [AccountBalance] = [], error: String? = nil, isLoading: Bool = false) {
        self.branding = branding
        self.balances = balances
        self.error = error
        self.isLoading = isLoading
    }
}

/// The accounts panel (`A`): equity, buying power and cash of every broker that has accounts.
public struct AccountsPanel: Sendable, Hashable {
    public var entries: [AccountsPanelEntry]

    public init(entries: [AccountsPanelEntry]) {
        self.entries = entries
    }
}

/// A message for the status line, kept in the message log with its time.
public struct StatusMessage: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case info, warning, error }
    public var kind: Kind
    public var text: String
    /// When it was said (local clock): the log shows it, and an info message fades some seconds after it.
    public var at: Date

    /// How long an info message ("Sorted by last", "Added IBM") stays on the status line. Warnings and
    /// errors stay until dismissed or replaced: they say something the user has to read.
    public static let infoLifetime: TimeInterval = 5

    public init(_ kind: Kind, _ text: String, at: Date) {
        self.kind = kind
        self.text = text
        self.at = at
    }

    /// Whether the status line still shows it at `now`.
    public func isShown(at now: Date) -> Bool {
        kind != .info || now.timeIntervalSince(at) < Self.infoLifetime
    }
}

/// Everything a frame of the watchlist screen shows. Views are pure functions of this, a size and now.
public struct WatchlistViewState: Sendable {
    /// In display order, read from the quote store's snapshot as they are drawn.
    public var rows: WatchlistRows
    /// Index into `rows`; nil when there are no rows. The view scrolls to keep it on screen.
    public var selectedIndex: Int?
    public var sort: SortOrder
    /// The screen in front of the table (the table alone when `.watchlist`).
    public var front: FrontScreen
    public var brokers: [BrokerStatus]
    /// Fake data is on screen: the header says DEMO.
    public var isDemo: Bool
    /// A safety check the user turned off (e.g. "TLS NOT VERIFIED"): the header shows it on every frame.
    public var securityWarning: String?
    /// The current message; the view hides an info message once it has faded (`StatusMessage.isShown`).
    public var message: StatusMessage?
    /// The last messages, oldest first, for the message log overlay.
    public var messageLog: [StatusMessage]
    /// False when edits are not saved (a `--symbols` run): the header says so.
    public var isSaved: Bool
    /// The lists' names in order, and which one is shown (the header's tabs).
    public var listNames: [String]
    public var currentList: Int
    /// How many symbols each list holds (the lists menu says so).
    public var listSizes: [Int]
    /// The symbol across every broker, while the detail view is open.
    public var detail: SymbolDetail?
    /// Rows whose last quote is older than this are drawn dimmed.
    public var staleAfter: TimeInterval
    /// How long a changed price stays highlighted.
    public var highlightFor: TimeInterval
    /// The accounts panel when it is open.
    public var accounts: AccountsPanel?
    /// Every trading broker's positions, orders and balances (the orders screen reads it).
    public var portfolio: PortfolioStore = PortfolioStore(brokers: [])
    /// The positions screen's figures, valued at live prices, while it is in front.
    public var positions: PositionsSummary?
    /// The order ticket's estimate, while it is in front.
    public var ticketPreview: TicketPreview?
    /// Some broker's orders reach a production account: the header says LIVE TRADING.
    public var tradesLive = false
    /// The alerts that are set, what fired this run (oldest first) and the rows that fired since the
    /// alert log was last opened (highlighted and marked `!`).
    public var alerts = AlertBook()
    public var alertLog: [AlertFiring] = []
    public var alertedRows: Set<QuoteKey> = []
    /// The theme to draw in (`T` cycles it).
    public var theme: ThemeName = .dark
    /// The table's keys, which the help overlay and the footer show.
    public var keys: KeyBindings = .standard
    /// The shown list's `/` filter; nil shows every row.
    public var filter: String?
    /// One row per (symbol, broker), or one per symbol across brokers.
    public var rowMode: WatchlistRowMode = .perBroker
    /// The sort's order is reversed (`r`): the heading's mark points the other way.
    public var sortReversed = false
    /// The table's columns in order (the config's `columns`).
    public var columns: [WatchlistColumn] = WatchlistColumn.defaultOrder
    /// A broker's last this far from the median of the others' flags its row.
    public var outlierBasisPoints: ExactDecimal = 50
    /// The sparkline column's window.
    public var sparklineMinutes = 10

    public init(
        rows: WatchlistRows = WatchlistRows(), selectedIndex: Int? = nil, sort: SortOrder = .symbol,
        front: FrontScreen = .watchlist, brokers: [BrokerStatus] = [], isDemo: Bool = false, message: StatusMessage? = nil,
        staleAfter: TimeInterval = 30, highlightFor: TimeInterval = 1, accounts: AccountsPanel? = nil,
        securityWarning: String? = nil, messageLog: [StatusMessage] = [], isSaved: Bool = true,
        listNames: [String] = ["Watchlist"], currentList: Int = 0, listSizes: [Int] = [], detail: SymbolDetail? = nil
    ) {
        self.detail = detail
        self.listNames = listNames
        self.currentList = currentList
        self.listSizes = listSizes
        self.securityWarning = securityWarning
        self.messageLog = messageLog
        self.isSaved = isSaved
        self.rows = rows
        self.selectedIndex = selectedIndex
        self.sort = sort
        self.front = front
        self.brokers = brokers
        self.isDemo = isDemo
        self.message = message
        self.staleAfter = staleAfter
        self.highlightFor = highlightFor
        self.accounts = accounts
    }
}
