import Domain
import Foundation

/// Shares opened by one fill and not yet closed: the unit FIFO realized P&L works on. `quantity` is
/// negative for a short lot.
public struct Lot: Sendable, Hashable, Codable {
    public let quantity: ExactDecimal
    public let price: ExactDecimal
    /// `quantity × price`, kept so closing part of a lot takes out exactly what was put in.
    public let cost: ExactDecimal
    public let openedAt: Date

    init(quantity: ExactDecimal, price: ExactDecimal, openedAt: Date) throws(ExactDecimal.ArithmeticError) {
        self.quantity = quantity
        self.price = price
        self.cost = try quantity.multiplied(by: price)
        self.openedAt = openedAt
    }
}
