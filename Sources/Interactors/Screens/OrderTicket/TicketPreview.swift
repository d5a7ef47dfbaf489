import Domain

/// What the ticket shows under its fields: the price the order would fill at now, what it would cost,
/// the commission and the buying power left. An estimate from the latest quote, labelled as such.
public struct TicketPreview: Sendable, Hashable {
    /// The price used and where it came from ("ask", "bid", "last trade", "limit", "stop").
    public var price: ExactDecimal?
    public var priceSource: String?
    /// Quantity × price: paid for a buy, received for a sell.
    public var amount: ExactDecimal?
    /// Nil when the broker bills its own way.
    public var commission: ExactDecimal?
    public var buyingPower: ExactDecimal?
    /// Buying power after a buy (less the cost and commission) or a sell (plus the proceeds).
    public var buyingPowerAfter: ExactDecimal?

    public init(ticket: OrderTicket, quote: CommonQuote?, buyingPower: ExactDecimal?) {
        let buys = ticket.side.isBuy
        let limit = ExactDecimal(parsing: ticket.limit).flatMap { $0.isPositive ? $0 : nil }
        let stop = ExactDecimal(parsing: ticket.stop).flatMap { $0.isPositive ? $0 : nil }
        let quoted = buys ? quote?.ask : quote?.bid
        switch ticket.kind {
        case .limit where limit != nil, .stopLimit where limit != nil:
            (price, priceSource) = (limit, "limit")
        case .stop where stop != nil:
            (price, priceSource) = (stop, "stop")
        default:
            if let quoted, quoted.isPositive {
                (price, priceSource) = (quoted, buys ? "ask" : "bid")
            } else if let last = quote?.last {
                (price, priceSource) = (last, "last trade")
            }
        }
        let shares = ExactDecimal(parsing: ticket.quantity).flatMap { $0.isPositive ? $0 : nil }
        if let price, let shares { amount = try? price.multiplied(by: shares).rounded(toScale: 2, rule: .toNearestOrAwayFromZero) }
        if let shares { commission = ticket.broker.commission?.amount(for: shares) }
        self.buyingPower = buyingPower
        if let buyingPower, let amount {
            let fees = commission ?? 0
            buyingPowerAfter = buys
                ? try? buyingPower.subtracting(amount).subtracting(fees)
                : try? buyingPower.adding(amount).subtracting(fees)
        }
    }
}
