import Domain

/// Why the paper account will not take an order, in words for the ticket's status line and the orders
/// screen: what was asked, what the account has, what to do.
public enum PaperRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The order (at its estimated price, with commission) needs more buying power than is free.
    case insufficientBuyingPower(needed: ExactDecimal, available: ExactDecimal)
    /// A sell for more shares than are held long and not already promised to open sells.
    case insufficientShares(symbol: String, wanted: ExactDecimal, available: ExactDecimal)
    /// A buy to cover for more shares than are short and not already being covered.
    case insufficientShortPosition(symbol: String, wanted: ExactDecimal, available: ExactDecimal)
    /// A short sale while the config does not allow them.
    case shortingNotAllowed(symbol: String)
    /// A short sale of a symbol held long: sell those first.
    case holdsLong(symbol: String, quantity: ExactDecimal)
    /// A plain buy of a symbol held short: buy to cover instead.
    case holdsShort(symbol: String, quantity: ExactDecimal)
    /// The paper broker trades whole shares.
    case fractionalQuantity(ExactDecimal)
    /// A limit or stop price that is not a whole number of ticks (`PriceIncrement`).
    case offTick(field: String, price: ExactDecimal, tick: ExactDecimal)
    /// The quote has no price to estimate the order's cost by (no ask or bid and no last trade).
    case noPrice(symbol: String)
    /// The order's value is beyond what the account can count.
    case tooLarge(ExactDecimal.ArithmeticError)

    public var description: String {
        switch self {
        case .insufficientBuyingPower(let needed, let available):
            "needs \(Self.money(needed)) with commission, buying power is \(Self.money(available))"
        case .insufficientShares(let symbol, let wanted, let available):
            available.isZero
                ? "selling \(wanted) \(symbol) but no \(symbol) shares are free to sell (none held, or open orders hold them)"
                : "selling \(wanted) \(symbol) but only \(available) can be sold; lower the quantity"
        case .insufficientShortPosition(let symbol, let wanted, let available):
            available.isZero
                ? "buying \(wanted) \(symbol) to cover but no \(symbol) short is free to cover (none held, or open orders cover it)"
                : "buying \(wanted) \(symbol) to cover but only \(available) can be covered; lower the quantity"
        case .shortingNotAllowed(let symbol):
            "selling \(symbol) short is off; set allowShort in the paper broker's config to allow it"
        case .holdsLong(let symbol, let quantity):
            "\(quantity) \(symbol) held long; sell them before selling short"
        case .holdsShort(let symbol, let quantity):
            "\(quantity.magnitude) \(symbol) held short; use buy to cover"
        case .fractionalQuantity(let quantity):
            "quantity \(quantity) is not a whole number of shares; the paper broker trades whole shares"
        case .offTick(let field, let price, let tick):
            "\(field) price \(price) is not a multiple of \(tick); use \(tick.significantFractionDigits) decimals at this price"
        case .noPrice(let symbol):
            "no price for \(symbol) yet to estimate the cost; wait for a quote or give a limit price"
        case .tooLarge(let error):
            "order too large: \(error)"
        }
    }

    /// The same refusal in the one error domain every broker reports in.
    public var brokerError: BrokerError {
        switch self {
        case .insufficientBuyingPower: .insufficientBuyingPower(description)
        default: .orderRejected(reason: description)
        }
    }

    static func money(_ amount: ExactDecimal) -> String {
        (amount.isNegative ? "-$" : "$") + amount.magnitude.formatted(fractionDigits: 2)
    }
}
