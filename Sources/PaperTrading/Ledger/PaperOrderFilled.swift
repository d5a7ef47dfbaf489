import Domain
import Foundation

/// An execution of an open order: `quantity` shares at `price`, which the quote's `priceSource` gave.
/// The order's symbol and side are in its `placed` line.
public struct PaperOrderFilled: Sendable, Hashable {
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

extension PaperOrderFilled {
    init(from container: PaperLedgerDecoding) throws {
        self.init(
            orderID: try container.decode(OrderID.self, forKey: .orderID),
            fillID: try container.decode(FillID.self, forKey: .fillID),
            quantity: try container.decode(ExactDecimal.self, forKey: .quantity),
            price: try container.decode(ExactDecimal.self, forKey: .price),
            priceSource: try container.decode(FillPriceSource.self, forKey: .priceSource),
            commission: try container.decode(ExactDecimal.self, forKey: .commission),
            time: try container.decode(Date.self, forKey: .time))
    }

    /// `init(from:)` for a replay's fast path; nil wherever that one would not succeed the same way.
    init?(members: PaperLedgerMembers) {
        guard let orderID = PaperLedgerMembers.string(members.orderID),
              let fillID = PaperLedgerMembers.string(members.fillID),
              let quantity = PaperLedgerMembers.decimal(members.quantity),
              let price = PaperLedgerMembers.decimal(members.price),
              let priceSource = PaperLedgerMembers.word(members.priceSource, in: PaperLedgerMembers.priceSources),
              let commission = PaperLedgerMembers.decimal(members.commission),
              let time = PaperLedgerMembers.date(members.time)
        else { return nil }
        self.init(
            orderID: OrderID(orderID), fillID: FillID(fillID), quantity: quantity, price: price,
            priceSource: priceSource, commission: commission, time: time)
    }

    func encode(to container: inout PaperLedgerEncoding) throws {
        try container.encode(orderID, forKey: .orderID)
        try container.encode(fillID, forKey: .fillID)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(price, forKey: .price)
        try container.encode(priceSource, forKey: .priceSource)
        try container.encode(commission, forKey: .commission)
        try container.encode(time, forKey: .time)
    }
}
