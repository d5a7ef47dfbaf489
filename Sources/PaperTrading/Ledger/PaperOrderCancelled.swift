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

    /// `init(from:)` for a replay's fast path; nil wherever that one would not succeed the same way.
    init?(members: PaperLedgerMembers) {
        guard let orderID = PaperLedgerMembers.string(members.orderID),
              let time = PaperLedgerMembers.date(members.time),
              let replacedBy = PaperLedgerMembers.optional(members.replacedBy, PaperLedgerMembers.string)
        else { return nil }
        self.init(orderID: OrderID(orderID), time: time, replacedBy: replacedBy.map(OrderID.init(rawValue:)))
    }

    func encode(to container: inout PaperLedgerEncoding) throws {
        try container.encode(orderID, forKey: .orderID)
        try container.encode(time, forKey: .time)
        try container.encodeIfPresent(replacedBy, forKey: .replacedBy)
    }
}
