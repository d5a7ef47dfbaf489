import Domain
import Foundation

/// An order the paper account took, with the id it was given. On the line, the request's members stand
/// beside the others (`symbol`, `side`, `quantity`, `orderType` with `limit` / `stop`, `timeInForce`,
/// `clientOrderID`), and are checked as the ticket checks them when read back.
public struct PaperOrderPlaced: Sendable, Hashable {
    public var orderID: OrderID
    public var request: OrderRequest
    public var time: Date
    /// When a day order expires (the close of the session it was placed for); nil for good till cancelled.
    public var expiresAt: Date?
    /// The source's bid, ask and last trade when the order was placed: what its hold on buying power was
    /// estimated from, so a replay holds exactly what the live account held.
    public var bid: ExactDecimal?
    public var ask: ExactDecimal?
    public var last: ExactDecimal?

    public init(
        orderID: OrderID, request: OrderRequest, time: Date, expiresAt: Date?,
        bid: ExactDecimal?, ask: ExactDecimal?, last: ExactDecimal?
    ) {
        self.orderID = orderID
        self.request = request
        self.time = time
        self.expiresAt = expiresAt
        self.bid = bid
        self.ask = ask
        self.last = last
    }

    /// The prices the hold was estimated from, as the account's rules take them.
    var quote: QuoteSnapshot {
        QuoteSnapshot(bid: bid, ask: ask, last: last ?? 0, time: time)
    }
}

extension PaperOrderPlaced {
    init(from container: PaperLedgerDecoding) throws {
        let request: OrderRequest
        do {
            request = try OrderRequest(
                symbol: try container.decode(String.self, forKey: .symbol),
                side: try container.decode(OrderSide.self, forKey: .side),
                quantity: try container.decode(ExactDecimal.self, forKey: .quantity),
                type: try OrderType.decode(named: .orderType, from: container),
                timeInForce: try container.decode(TimeInForce.self, forKey: .timeInForce),
                clientOrderID: try container.decode(ClientOrderID.self, forKey: .clientOrderID))
        } catch let invalid as OrderRequest.Invalid {
            // The same rules as the ticket's, so a ledger cannot hold an order the ticket could not make.
            throw DecodingError.dataCorruptedError(forKey: .quantity, in: container, debugDescription: "invalid order: \(invalid)")
        }
        self.init(
            orderID: try container.decode(OrderID.self, forKey: .orderID), request: request,
            time: try container.decode(Date.self, forKey: .time),
            expiresAt: try container.decodeIfPresent(Date.self, forKey: .expiresAt),
            bid: try container.decodeIfPresent(ExactDecimal.self, forKey: .bid),
            ask: try container.decodeIfPresent(ExactDecimal.self, forKey: .ask),
            last: try container.decodeIfPresent(ExactDecimal.self, forKey: .last))
    }

    /// `init(from:)` for a replay's fast path; nil wherever that one would not succeed the same way,
    /// including an order the ticket could not make (`OrderRequest`'s own checks, as there).
    init?(members: PaperLedgerMembers) {
        guard let orderID = PaperLedgerMembers.string(members.orderID),
              let symbol = PaperLedgerMembers.string(members.symbol),
              let side = PaperLedgerMembers.word(members.side, in: PaperLedgerMembers.sides),
              let quantity = PaperLedgerMembers.decimal(members.quantity),
              let type = OrderType.parse(named: members.orderType, from: members),
              let timeInForce = PaperLedgerMembers.word(members.timeInForce, in: PaperLedgerMembers.timesInForce),
              let clientOrderID = PaperLedgerMembers.string(members.clientOrderID),
              let time = PaperLedgerMembers.date(members.time),
              let expiresAt = PaperLedgerMembers.optional(members.expiresAt, PaperLedgerMembers.date),
              let bid = PaperLedgerMembers.optional(members.bid, PaperLedgerMembers.decimal),
              let ask = PaperLedgerMembers.optional(members.ask, PaperLedgerMembers.decimal),
              let last = PaperLedgerMembers.optional(members.last, PaperLedgerMembers.decimal),
              let request = try? OrderRequest(
                  symbol: symbol, side: side, quantity: quantity, type: type, timeInForce: timeInForce,
                  clientOrderID: ClientOrderID(clientOrderID))
        else { return nil }
        self.init(orderID: OrderID(orderID), request: request, time: time, expiresAt: expiresAt, bid: bid, ask: ask, last: last)
    }

    func encode(to container: inout PaperLedgerEncoding) throws {
        try container.encode(orderID, forKey: .orderID)
        try container.encode(request.symbol, forKey: .symbol)
        try container.encode(request.side, forKey: .side)
        try container.encode(request.quantity, forKey: .quantity)
        try request.type.encode(named: .orderType, to: &container)
        try container.encode(request.timeInForce, forKey: .timeInForce)
        try container.encode(request.clientOrderID, forKey: .clientOrderID)
        try container.encode(time, forKey: .time)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(bid, forKey: .bid)
        try container.encodeIfPresent(ask, forKey: .ask)
        try container.encodeIfPresent(last, forKey: .last)
    }
}
