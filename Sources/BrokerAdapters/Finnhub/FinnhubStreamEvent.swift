import Domain
import Foundation

/// One message, or one trade of a message, from Finnhub's trades WebSocket (reference §4.2), with only
/// the fields the watchlist uses. Unknown message types are not represented: the decoder skips them.
public enum FinnhubStreamEvent: Sendable, Hashable {
    /// One element of a `trade` message's `data`: price `p` of symbol `s` at `t` (Unix milliseconds).
    /// Volume `v` is left out: it is the trade's size, not the day's volume, and 0 on price-only updates.
    case trade(symbol: String, price: ExactDecimal, timestamp: Date)
    /// `{"type":"ping"}`, sent while the connection is idle; no reply is expected.
    case ping
    /// `{"type":"error","msg":"..."}` (the shape is [L] in the reference).
    case error(message: String)
}
