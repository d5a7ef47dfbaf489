import Domain
import Foundation

/// An execution of an open order: `quantity` shares at `price`, which the quote's `priceSource` gave.
/// The order's symbol and side are in its `placed` line.
public struct PaperOrderFilled: Sendable, Hashable, Codable {
    public var orderID: OrderID
    public var fillID: FillID
    public var quantity: ExactDecimal
    public var price: ExactDecimal
    public var priceSource: FillPriceSource
    public var commission: ExactDecimal
    public var time: Date

    public init(
        orderID: OrderID, fillID: FillID, quantity: ExactDecimal, price: ExactDecimal,
        priceSource: FillPriceSource, commission: ExactDecimal, time: Date
    ) {
        self.orderID = orderID
        self.fillID = fillID
        self.quantity = quantity
        self.price = price
        self.priceSource = priceSource
        self.commission = commission
        self.time = time
    }
}
