import Domain
import Foundation

/// An open order ended at the user's request, or replaced by `replacedBy` (placed in the same append).
public struct PaperOrderCancelled: Sendable, Hashable {
    public var orderID: OrderID
    public var time: Date
    public var replacedBy: OrderID?

    public init(orderID: OrderID, time: Date, replacedBy: OrderID? = nil) {
        self.orderID = orderID
        self.time = time
        self.replacedBy = replacedBy
    }
}

extension PaperOrderCancelled {
    init(from container: PaperLedgerDecoding) throws {
        self.init(
            orderID: try container.decode(OrderID.self, forKey: .orderID),
            time: try container.decode(Date.self, forKey: .time),
            replacedBy: try container.decodeIfPresent(OrderID.self, forKey: .replacedBy))
    }

    func encode(to container: inout PaperLedgerEncoding) throws {
        try container.encode(orderID, forKey: .orderID)
        try container.encode(time, forKey: .time)
        try container.encodeIfPresent(replacedBy, forKey: .replacedBy)
    }
}
