import Domain
import Foundation

/// When and at what price the paper broker fills an order, as pure functions of the order and a quote.
///
/// - A market buy fills at the ask, a market sell at the bid; with no ask (no bid) on the quote, at the
///   last trade, labelled `.lastTrade` so nobody mistakes it for a price that was offered.
/// - A buy limit fills once the ask is at or below the limit, a sell limit once the bid is at or above
///   it, at the better of quote and limit, which is the quote: a market that gaps through the limit
///   fills at the gapped price. Without that side of the quote, the last trade stands in.
/// - Stops trigger on the last trade (a buy stop when last ≥ stop, a sell stop when last ≤ stop) and then
///   work as a market order (stop) or a limit order (stop limit).
/// - Sell short trades as a sell, buy to cover as a buy.
/// - While the market is closed nothing fills or triggers; orders wait.
///
/// Simplified on purpose: every fill is the whole order (no partial fills), there is no queue position
/// (a limit fills as soon as the quote touches it) and quote size is ignored.
public enum FillRules {
    /// The decision for an order with `side` working as `type`, on `quote`.
    public static func decide(side: OrderSide, type: OrderType, quote: QuoteSnapshot, marketOpen: Bool) -> FillDecision {
        guard marketOpen else { return .noFill(.marketClosed) }
        let buys = side.isBuy
        switch type {
        case .market:
            guard let (price, source) = buys ? quote.buyPrice : quote.sellPrice else { return .noFill(.noPrice) }
            return .fill(price: price, source: source)

        case .limit(let limit):
            guard let (price, source) = buys ? quote.buyPrice : quote.sellPrice else { return .noFill(.noPrice) }
            let reached = buys ? price <= limit : price >= limit
            // The better of quote and limit: once reached, the quote is never worse than the limit.
            return reached ? .fill(price: price, source: source) : .noFill(.limitNotReached)

        case .stop(let stop), .stopLimit(let stop, _):
            guard quote.last.isPositive else { return .noFill(.noPrice) }
            let triggered = buys ? quote.last >= stop : quote.last <= stop
            guard triggered else { return .noFill(.stopNotTriggered) }
            if case .stopLimit(_, let limit) = type { return .triggered(becomes: .limit(limit)) }
            return .triggered(becomes: .market)
        }
    }

    /// True when `order` is an open day order and `now` is at or after `sessionClose`, the close of the
    /// session it was placed for (the next close after it was placed: a day order placed after the close
    /// waits for the next session, whose close the caller passes). Good-till-cancelled orders never expire.
    public static func expires(_ order: Order, at now: Date, sessionClose: Date) -> Bool {
        order.request.timeInForce == .day && order.status.isOpen && now >= sessionClose
    }
}
