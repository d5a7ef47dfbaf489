import Foundation

/// One execution: shares that changed hands at one price. The paper broker fills an order in one piece,
/// so it makes one fill per order; a real broker may report several.
public struct Fill: Sendable, Hashable, Codable {
    public var id: FillID
    public var orderID: OrderID
    public var symbol: String
    public var side: OrderSide
    /// Shares, positive; `side` says the direction.
    public var quantity: ExactDecimal
    public var price: ExactDecimal
    /// Charged for this fill, zero or more.
    public var commission: ExactDecimal
    public var time: Date
    public var priceSource: FillPriceSource

    public init(
        id: FillID, orderID: OrderID, symbol: String, side: OrderSide, quantity: ExactDecimal,
        price: ExactDecimal, commission: ExactDecimal, time: Date, priceSource: FillPriceSource
    ) {
        self.id = id
        self.orderID = orderID
        self.symbol = symbol
        self.side = side
        self.quantity = quantity
        self.price = price
        self.commission = commission
        self.time = time
        self.priceSource = priceSource
    }

    /// `quantity × price` before commission, or `.overflow`.
    public func grossValue() throws(ExactDecimal.ArithmeticError) -> ExactDecimal {
        try quantity.multiplied(by: price)
    }
}
