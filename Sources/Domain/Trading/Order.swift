import Foundation

/// An order as the broker knows it: the request, the broker's id, and how far it has filled.
public struct Order: Sendable, Hashable, Codable {
    public var request: OrderRequest
    public var id: OrderID
    public var status: OrderStatus
    /// Shares filled so far, 0 up to `request.quantity`.
    public var filledQuantity: ExactDecimal
    /// Volume-weighted price of the shares filled, nil while none has.
    public var averageFillPrice: ExactDecimal?
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        request: OrderRequest, id: OrderID, status: OrderStatus, filledQuantity: ExactDecimal = 0,
        averageFillPrice: ExactDecimal? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.request = request
        self.id = id
        self.status = status
        self.filledQuantity = filledQuantity
        self.averageFillPrice = averageFillPrice
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    public var symbol: String { request.symbol }
    public var side: OrderSide { request.side }

    /// Why the broker refused it, when it did.
    public var rejectReason: String? {
        if case .rejected(let reason) = status { reason } else { nil }
    }

    /// Shares still to fill.
    public var remainingQuantity: ExactDecimal { request.quantity - filledQuantity }
}
