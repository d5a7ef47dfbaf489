/// Which price an execution took, so the orders screen can say "filled at last trade" when the quote
/// source sent no bid or ask and nobody mistakes that price for one they could have traded at.
public enum FillPriceSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The quote's ask (a buy).
    case ask
    /// The quote's bid (a sell).
    case bid
    /// The last trade, because the quote had no ask (for a buy) or no bid (for a sell).
    case lastTrade = "last_trade"
    /// A real broker's own execution report: the price is theirs, its source unknown to us.
    case broker
}
