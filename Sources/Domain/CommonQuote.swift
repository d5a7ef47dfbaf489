import Foundation

/// A broker-neutral quote. Optional fields are nil when a broker does not send them.
///
/// Prices are exact decimals read from the broker's own digits (`ExactDecimal`), never `Double`: a
/// price of `0.1` is 0.1, and the change and change % shown are the exact difference and quotient of
/// what the broker sent.
public struct CommonQuote: QuoteModel, Sendable, Hashable, Codable {
    public var symbol: String
    public var last: ExactDecimal
    public var timestamp: Date
    public var bid: ExactDecimal?
    public var ask: ExactDecimal?
    public var previousClose: ExactDecimal?
    public var volume: Int64?

    public init(
        symbol: String, last: ExactDecimal, timestamp: Date,
        bid: ExactDecimal? = nil, ask: ExactDecimal? = nil, previousClose: ExactDecimal? = nil, volume: Int64? = nil
    ) {
        self.symbol = symbol
        self.last = last
        self.timestamp = timestamp
        self.bid = bid
        self.ask = ask
        self.previousClose = previousClose
        self.volume = volume
    }

    /// Change since the previous close, exactly, when the broker told us the close (nil if the difference
    /// were beyond ±90,000,000,000, which no two prices in range can reach unless one is negative).
    public var change: ExactDecimal? {
        guard let close = previousClose else { return nil }
        return try? last.subtracting(close)
    }

    /// Change in percent of the previous close, `(last − close) × 100 ÷ close`, cut toward zero at 8
    /// decimals; nil without a close, with a close of zero, or beyond the range.
    ///
    /// Why cut rather than round: the table rounds this half away from zero to 2 decimals, and cutting at
    /// the 8th first never moves a value across one of those halfway points (they lie on the 8-decimal
    /// grid), so the digits shown are those of the exact quotient. Rounding at the 8th could turn
    /// 1.2349999999… into 1.235 and show 1.24 instead of 1.23.
    public var changePercent: ExactDecimal? {
        guard let close = previousClose, !close.isZero else { return nil }
        return try? last.subtracting(close).ratio(to: close, times: 100, rounding: .towardZero)
    }
}
