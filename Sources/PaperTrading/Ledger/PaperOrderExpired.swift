import Domain
import Foundation

/// A day order still open at the close of its session.
public struct PaperOrderExpired: Sendable, Hashable, Codable {
    public var orderID: OrderID
    public var time: Date

    public init(orderID: OrderID, time: Date) {
        self.orderID = orderID
        self.time = time
    }
}
