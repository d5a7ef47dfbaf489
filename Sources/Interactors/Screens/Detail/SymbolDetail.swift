import Domain
import Foundation
import Stores

/// One symbol across every broker, for the detail view: each broker's quote, state and recent prices,
/// which broker has the best bid and the best ask, and how far the brokers disagree.
public struct SymbolDetail: Sendable, Hashable {
    public var symbol: String
    public var entries: [Entry]

    public struct Entry: Sendable, Hashable {
        public var branding: ServiceBranding
        public var quote: CommonQuote?
        /// Why there is no price, as a row would say it.
        public var error: String?
        public var state: BrokerConnectionState
        public var receivedAt: Date?
        /// The lowest and highest price seen in the history (the app's, not the exchange's day range).
        public var seenRange: ClosedRange<ExactDecimal>?
        /// Oldest first, at most one a second.
        public var history: [PricePoint]

        public init(
            branding: ServiceBranding, quote: CommonQuote? = nil, error: String? = nil, state: BrokerConnectionState = .live,
            receivedAt: Date? = nil, seenRange: ClosedRange<ExactDecimal>? = nil, history: [PricePoint] = []
        ) {
            self.branding = branding
            self.quote = quote
            self.error = error
            self.state = state
            self.receivedAt = receivedAt
            self.seenRange = seenRange
            self.history = history
        }
    }

    public init(symbol: String, entries: [Entry]) {
        self.symbol = symbol
        self.entries = entries
    }

    /// The highest bid now, and whose it is (the first broker on a tie).
    public var bestBid: (branding: ServiceBranding, price: ExactDecimal)? {
        entries.compactMap { entry in entry.quote?.bid.map { (entry.branding, $0) } }
            .reduce(nil) { best, next in best.map { next.1 > $0.1 ? next : $0 } ?? next }
    }

    /// The lowest ask now, and whose it is (the first broker on a tie).
    public var bestAsk: (branding: ServiceBranding, price: ExactDecimal)? {
        entries.compactMap { entry in entry.quote?.ask.map { (entry.branding, $0) } }
            .reduce(nil) { best, next in best.map { next.1 < $0.1 ? next : $0 } ?? next }
    }

    /// Highest minus lowest last price, in basis points of their median (`CrossBrokerQuote`'s figure);
    /// nil with fewer than two prices or a median of zero or less.
    public var disagreementBasisPoints: ExactDecimal? {
        CrossBrokerQuote.disagreementBasisPoints(sortedLasts: entries.compactMap(\.quote?.last).sorted())
    }
}

/// A price at a time, for charts.
public struct PricePoint: Sendable, Hashable {
    public var time: Date
    public var price: ExactDecimal

    public init(time: Date, price: ExactDecimal) {
        self.time = time
        self.price = price
    }
}
