import Domain
import Foundation

/// Latest quote and status of one row, with what the view needs for highlights and staleness.
public struct QuoteEntry: Sendable, Hashable {
    public var quote: CommonQuote?
    public var error: BrokerError?
    /// Local time the last quote arrived.
    public var receivedAt: Date?
    /// Local time `last` last changed value.
    public var lastChangeAt: Date?
    /// +1 up, -1 down, 0 unknown.
    public var lastChangeDirection: Int
    /// The last prices, one a second for 30 minutes, for the detail view's chart.
    public var history = PriceHistory()

    public init(
        quote: CommonQuote? = nil, error: BrokerError? = nil, receivedAt: Date? = nil,
        lastChangeAt: Date? = nil, lastChangeDirection: Int = 0
    ) {
        self.quote = quote
        self.error = error
        self.receivedAt = receivedAt
        self.lastChangeAt = lastChangeAt
        self.lastChangeDirection = lastChangeDirection
    }
}
