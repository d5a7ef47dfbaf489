import Domain
import Foundation

/// One message of an Alpaca market-data WebSocket frame, with only the fields the watchlist uses
/// (reference §3.2). Bars, statuses, LULDs, corrections and unknown types are not represented: the
/// decoder skips them.
public enum AlpacaStreamEvent: Sendable, Hashable {
    /// `{"T":"success","msg":"connected"}` and `"authenticated"`.
    case success(message: String)
    /// `{"T":"error","code":402,"msg":"auth failed"}`; the codes are in the reference's table.
    case error(code: Int, message: String)
    /// The complete current subscription, sent after every subscribe and unsubscribe.
    case subscription(trades: [String], quotes: [String])
    /// `t`: a trade at `p`; `t` is RFC 3339 with 0–9 fraction digits.
    case trade(symbol: String, price: ExactDecimal, timestamp: Date)
    /// `q`: bid `bp` and ask `ap` (absent sides are nil).
    case quote(symbol: String, bidPrice: ExactDecimal?, askPrice: ExactDecimal?, timestamp: Date)
}
