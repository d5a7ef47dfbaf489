import Domain
import Foundation

/// An order the paper account took, with the id it was given.
public struct PaperOrderPlaced: Sendable, Hashable, Codable {
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
