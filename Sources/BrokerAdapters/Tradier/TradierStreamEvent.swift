import Domain
import Foundation

/// One message of Tradier's market WebSocket (reference §1.5), with only the fields the watchlist uses.
/// Symbols are in Tradier's spelling (`BRK/B`). `timesale` and unknown types are not represented: the
/// decoder skips them. A timestamp is nil when the message has no usable date.
public enum TradierStreamEvent: Sendable, Hashable {
    /// `trade` or `tradex`: `price` (else `last`); `cvol` is the day's cumulative volume; `date` epoch ms.
    case trade(symbol: String, price: ExactDecimal, cumulativeVolume: Int64?, timestamp: Date?)
    /// `quote`: `bid` and `ask` (absent sides are nil), dated by the later of `biddate` and `askdate`.
    case quote(symbol: String, bidPrice: ExactDecimal?, askPrice: ExactDecimal?, timestamp: Date?)
    /// `summary`: `prevClose` (camelCase on the stream, unlike REST's `prevclose`).
    case summary(symbol: String, previousClose: ExactDecimal)
    /// `{"error":"1234 is not a valid symbol"}`, also sent for an invalid or expired session.
    case error(message: String)
}
