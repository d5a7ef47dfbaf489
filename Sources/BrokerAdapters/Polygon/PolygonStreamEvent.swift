import Domain
import Foundation

/// One event of a Polygon (Massive) stocks WebSocket frame, with only the fields the watchlist uses
/// (reference §2.3). Aggregates (`A`, `AM`) and unknown event types are not represented: the decoder
/// skips them.
public enum PolygonStreamEvent: Sendable, Hashable {
    /// `{"ev":"status","status":"auth_success","message":"authenticated"}`: connection, auth and
    /// subscription outcomes.
    case status(status: String, message: String)
    /// `T`: a trade at `p`; `t` is Unix milliseconds.
    case trade(symbol: String, price: ExactDecimal, timestamp: Date)
    /// `Q`: the NBBO, bid `bp` and ask `ap` (absent sides are nil).
    case quote(symbol: String, bidPrice: ExactDecimal?, askPrice: ExactDecimal?, timestamp: Date)
}
