import Domain
import Foundation

/// Latest quote and status of one row, with what the view needs for highlights and staleness. Small on
/// purpose: the screens read a snapshot of every entry on each frame, while the price history stays in
/// `QuoteStore` alone (`history(for:)`).
public struct QuoteEntry: Sendable, Hashable {
    public var quote: CommonQuote?
    public var error: BrokerError?
    /// Local time the last quote arrived.
    public var receivedAt: Date?
    /// Local time `last` last changed value.
    public var lastChangeAt: Date?
    /// +1 up, -1 down, 0 unknown.
    public var lastChangeDirection: Int

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
