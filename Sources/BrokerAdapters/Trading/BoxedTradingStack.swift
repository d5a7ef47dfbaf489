import Domain

/// A broker whose positions and orders are `TradingBoxes`: the capability methods call the boxes, once
/// for every broker, so a screen handed a box and a screen handed the broker send the same requests.
/// `AlpacaTradingStack` and `TradierTradingStack` build the boxes from their own primitives.
public protocol BoxedTradingStack: OrderService, PositionService {
    var listPositions: TradingBoxes.ListPositions { get }
    var listOrders: TradingBoxes.ListOrders { get }
    var placeOrder: TradingBoxes.PlaceOrder { get }
    var cancelOrder: TradingBoxes.CancelOrder { get }
    var replaceOrder: TradingBoxes.ReplaceOrder { get }
}

extension BoxedTradingStack {
    public func positions() async throws(BrokerError) -> [Position] {
        try await listPositions().get()
    }

    public func orders(status: OrderStatusFilter) async throws(BrokerError) -> [Order] {
        try await listOrders(status).get()
    }

    public func place(_ request: OrderRequest) async throws(BrokerError) -> Order {
        try await placeOrder(request).get()
    }

    public func cancel(id: OrderID) async throws(BrokerError) {
        try await cancelOrder(id).get()
    }

    public func replace(id: OrderID, _ request: OrderRequest) async throws(BrokerError) -> Order {
        try await replaceOrder(OrderReplacement(id: id, request: request)).get()
    }
}
