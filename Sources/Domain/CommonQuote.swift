import Foundation

/// A broker-neutral quote. Optional fields are nil when a broker does not send them.
public struct CommonQuote: QuoteModel, Sendable, Hashable, Codable {
    public var symbol: String
    public var last: Double
    public var timestamp: Date
    public var bid: Double?
    public var ask: Double?
    public var previousClose: Double?
    public var volume: Int64?

    public init(
        symbol: String, last: Double, timestamp: Date,
        bid: Double? = nil, ask: Double? = nil, previousClose: Double? = nil, volume: Int64? = nil
    ) {
        self.symbol = symbol
        self.last = last
        self.timestamp = timestamp
        self.bid = bid
        self.ask = ask
        self.previousClose = previousClose
        self.volume = volume
    }

    /// Change since the previous close, when the broker told us the close.
    public var change: Double? { previousClose.map { last - $0 } }

    /// Change in percent of the previous close; nil without a usable close.
    public var changePercent: Double? {
        guard let close = previousClose, close != 0 else { return nil }
        return (last - close) / close * 100
    }
}
