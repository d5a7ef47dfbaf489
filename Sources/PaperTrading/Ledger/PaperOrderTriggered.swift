import Domain
import Foundation

/// A stop order's trigger printed: from now on it works as `worksAs` (a market or a limit order).
public struct PaperOrderTriggered: Sendable, Hashable {
    public var orderID: OrderID
    public var worksAs: OrderType
    /// The last trade that reached the stop.
    public var lastTrade: ExactDecimal
    public var time: Date

    public init(orderID: OrderID, worksAs: OrderType, lastTrade: ExactDecimal, time: Date) {
        self.orderID = orderID
        self.worksAs = worksAs
        self.lastTrade = lastTrade
        self.time = time
    }
}

extension PaperOrderTriggered {
    init(from container: PaperLedgerDecoding) throws {
        self.init(
            orderID: try container.decode(OrderID.self, forKey: .orderID),
            worksAs: try OrderType.decode(named: .worksAs, from: container),
            lastTrade: try container.decode(ExactDecimal.self, forKey: .lastTrade),
            time: try container.decode(Date.self, forKey: .time))
    }

    /// `init(from:)` for a replay's fast path; nil wherever that one would not succeed the same way.
    init?(members: PaperLedgerMembers) {
        guard let orderID = PaperLedgerMembers.string(members.orderID),
              let worksAs = OrderType.parse(named: members.worksAs, from: members),
              let lastTrade = PaperLedgerMembers.decimal(members.lastTrade),
              let time = PaperLedgerMembers.date(members.time)
        else { return nil }
        self.init(orderID: OrderID(orderID), worksAs: worksAs, lastTrade: lastTrade, time: time)
    }

    func encode(to container: inout PaperLedgerEncoding) throws {
        try container.encode(orderID, forKey: .orderID)
        try worksAs.encode(named: .worksAs, to: &container)
        try container.encode(lastTrade, forKey: .lastTrade)
        try container.encode(time, forKey: .time)
    }
}
