import Domain
import Foundation

/// An open order that could not be booked when it came to fill (its value beyond what the account can
/// count, ±90 billion): it ends rejected with `reason` instead of filling.
public struct PaperOrderRejected: Sendable, Hashable {
    public var orderID: OrderID
    public var reason: String
    public var time: Date

    public init(orderID: OrderID, reason: String, time: Date) {
        self.orderID = orderID
        self.reason = reason
        self.time = time
    }
}

extension PaperOrderRejected {
    init(from container: PaperLedgerDecoding) throws {
        self.init(
            orderID: try container.decode(OrderID.self, forKey: .orderID),
            reason: try container.decode(String.self, forKey: .reason),
            time: try container.decode(Date.self, forKey: .time))
    }

    /// `init(from:)` for a replay's fast path; nil wherever that one would not succeed the same way.
    init?(members: PaperLedgerMembers) {
        guard let orderID = PaperLedgerMembers.string(members.orderID),
              let reason = PaperLedgerMembers.string(members.reason),
              let time = PaperLedgerMembers.date(members.time)
        else { return nil }
        self.init(orderID: OrderID(orderID), reason: reason, time: time)
    }

    func encode(to container: inout PaperLedgerEncoding) throws {
        try container.encode(orderID, forKey: .orderID)
        try container.encode(reason, forKey: .reason)
        try container.encode(time, forKey: .time)
    }
}
