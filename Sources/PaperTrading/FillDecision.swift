import Domain

/// What the fill rules say about one working order on one quote.
public enum FillDecision: Sendable, Hashable {
    /// Fill the whole order now at `price`, which came from `source`.
    case fill(price: ExactDecimal, source: FillPriceSource)
    /// A stop's trigger printed: the order now works as `becomes` (`.market` or `.limit`). Decide again on
    /// the same quote, since a triggered order may fill at once.
    case triggered(becomes: OrderType)
    /// Keep waiting, and why (for the orders screen).
    case noFill(NoFillReason)

    public enum NoFillReason: String, Sendable, Hashable, Codable {
        /// The market is closed: orders wait for the next session.
        case marketClosed = "market closed"
        /// The ask is above a buy limit, or the bid below a sell limit.
        case limitNotReached = "limit not reached"
        /// No trade has printed at or through the stop.
        case stopNotTriggered = "stop not triggered"
        /// The quote has no price on the side the order needs and no last trade.
        case noPrice = "no price"
    }
}
