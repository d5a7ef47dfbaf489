import Domain
import Interactors

/// Everything `config.json` can set, with a default for each key so that an absent file, or a file
/// with only a few keys, is a complete configuration. `config.example.json` documents every key.
public struct AppConfig: Sendable, Equatable {
    /// Seeds the watchlist on first run; after that the watchlist lives in the state directory.
    public var symbols: [String]
    /// A quote older than this is shown as stale.
    public var staleAfterSeconds: Int
    /// How long a changed price stays highlighted; 0 turns highlighting off.
    public var highlightMilliseconds: Int
    /// `false` draws without colors, as do `--no-color` and the `NO_COLOR` environment variable.
    public var color: Bool
    public var theme: Theme
    /// The watchlist's keys (`keys`, AppConfig+Keys).
    public var keys: KeyBindings = .standard
    /// `false` leaves the mouse to the terminal (selecting text without Shift); true lets a click
    /// select a row or a list and the wheel scroll.
    public var mouse = true
    public var tls: TLS
    public var brokers: Brokers
    public var trading: Trading
    public var paper: Paper
    /// Nil without a `bus` section: every process connects to its brokers itself.
    public var bus: Bus?
    /// Bell and desktop notification when a price alert fires (`AppConfig+Alerts`).
    public var alerts = Alerts()
    /// The watchlist's columns in order (`columns`).
    public var columns = WatchlistColumn.defaultOrder
    /// The sparkline column's window in minutes (`sparklineMinutes`).
    public var sparklineMinutes = 10
    /// How brokers quoting the same symbol are compared (`crossBroker`).
    public var crossBroker = CrossBroker()

    public static let staleAfterSecondsRange = 1...86_400
    public static let highlightMillisecondsRange = 0...10_000

    public init(
        symbols: [String] = ["AAPL", "MSFT", "NVDA"],
        staleAfterSeconds: Int = 30,
        highlightMilliseconds: Int = 1_000,
        color: Bool = true,
        theme: Theme = Theme(),
        tls: TLS = TLS(),
        brokers: Brokers = Brokers(),
        trading: Trading = Trading(),
        paper: Paper = Paper(),
        bus: Bus? = nil
    ) {
        self.symbols = symbols
        self.staleAfterSeconds = staleAfterSeconds
        self.highlightMilliseconds = highlightMilliseconds
        self.color = color
        self.theme = theme
        self.tls = tls
        self.brokers = brokers
        self.trading = trading
        self.paper = paper
        self.bus = bus
    }

    /// The configuration used when there is no config file.
    public static let `default` = AppConfig()

    public var staleAfter: Duration { .seconds(staleAfterSeconds) }
    public var highlightDuration: Duration { .milliseconds(highlightMilliseconds) }

    /// Whether to draw in color, given the command line and the environment. A `NO_COLOR` variable
    /// that is set and not empty turns colors off (https://no-color.org).
    public func usesColor(noColorOption: Bool, environment: [String: String]) -> Bool {
        color && !noColorOption && (environment["NO_COLOR"] ?? "").isEmpty
    }
}
