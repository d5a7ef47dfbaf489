import Domain
import Foundation

/// A day order still open at the close of its session.
public struct PaperOrderExpired: Sendable, Hashable {
    public var orderID: OrderID
    public var time: Date

    public init(orderID: OrderID, time: Date) {
        self.orderID = orderID
        self.time = time
    }
}

extension PaperOrderExpired {
    init(from container: PaperLedgerDecoding) throws {
        self.init(orderID: try container.decode(OrderID.self, forKey: .orderID), time: try container.decode(Date.self, forKey: .time))
    }

    /// `init(from:)` for a replay's fast path; nil wherever that one would not succeed the same way.
    init?(members: PaperLedgerMembers) {
        guard let orderID = PaperLedgerMembers.string(members.orderID),
              let time = PaperLedgerMembers.date(members.time)
        else { return nil }
        self.init(orderID: OrderID(orderID), time: time)
    }

    func encode(to container: inout PaperLedgerEncoding) throws {
        try container.encode(orderID, forKey: .orderID)
        try container.encode(time, forKey: .time)
    }
}
