import Domain
import Foundation

/// An open order that could not be booked when it came to fill (its value beyond what the account can
/// count, ±90 billion): it ends rejected with `reason` instead of filling.
public struct PaperOrderRejected: Sendable, Hashable, Codable {
    public var orderID: OrderID
    public var reason: String
    public var time: Date

    public init(orderID: OrderID, reason: String, time: Date) {
        self.orderID = orderID
        self.reason = reason
        self.time = time
    }
}
