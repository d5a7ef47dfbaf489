import Foundation

/// The US equity market at one instant: its phase, since when, what comes next and when.
public struct MarketState: Sendable, Hashable {
    public let phase: MarketPhase
    /// When `phase` began (for `closed`, the end of the last session's after hours).
    public let since: Date
    /// When `phase` ends, giving way to `nextPhase`.
    public let nextChange: Date
    public let nextPhase: MarketPhase
    /// The next opening of the regular session after this instant (09:30 New York time).
    public let nextOpen: Date
    /// The last trading day whose pre-market has begun: today's while the market trades, the one that
    /// ended last while it is closed.
    public let lastSession: TradingDay

    public init(phase: MarketPhase, since: Date, nextChange: Date, nextPhase: MarketPhase, nextOpen: Date, lastSession: TradingDay) {
        self.phase = phase
        self.since = since
        self.nextChange = nextChange
        self.nextPhase = nextPhase
        self.nextOpen = nextOpen
        self.lastSession = lastSession
    }

    /// True when the market is closed and `timestamp` falls in the session that ended last: such a price
    /// is the market's last word until it opens again, and its age in hours says nothing. A price older
    /// than that session is stale whatever the market does, so it is not one.
    public func isFromClosedSession(_ timestamp: Date) -> Bool {
        phase == .closed && timestamp >= lastSession.preMarketOpens && timestamp < since
    }

    /// `isFromClosedSession` for a price of `symbol`, which must follow the exchange's hours: a pair
    /// quoted around the clock (`Symbol.tradesAroundTheClock`) never waits for the market.
    public func isClosingPrice(of symbol: String, at timestamp: Date) -> Bool {
        isFromClosedSession(timestamp) && !Symbol.tradesAroundTheClock(symbol)
    }
}
