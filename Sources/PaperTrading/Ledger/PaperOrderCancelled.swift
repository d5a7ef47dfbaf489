import Domain
import Foundation

/// An open order ended at the user's request, or replaced by `replacedBy` (placed in the same append).
public struct PaperOrderCancelled: Sendable, Hashable, Codable {
    public var orderID: OrderID
    public var time: Date
    public var replacedBy: OrderID?

    public init(orderID: OrderID, time: Date, replacedBy: OrderID? = nil) {
        self.orderID = orderID
        self.time = time
        self.replacedBy = replacedBy
    }
}
