/// The trading endpoints as boxes (design doc 003): each a typed function from a domain input to a
/// domain result, so a screen or store that is handed one is tested against `Service.Mock` before any HTTP
/// exists. A broker's live boxes are built from its request factory and the one servicer (e.g.
/// `AlpacaBroker.placeOrder`); the capability protocols (`OrderService`, `PositionService`) call the same
/// boxes, so both ways of using a broker send the same requests.
public enum TradingBoxes {
    /// Every open position.
    public typealias ListPositions = Service<Void, Result<[Position], BrokerError>>
    /// Orders in the filter's group, newest first.
    public typealias ListOrders = Service<OrderStatusFilter, Result<[Order], BrokerError>>
    /// Sends one order; the order as the broker took it.
    public typealias PlaceOrder = Service<OrderRequest, Result<Order, BrokerError>>
    /// Asks for one open order to be cancelled.
    public typealias CancelOrder = Service<OrderID, Result<Void, BrokerError>>
    /// Replaces one open order; the new order.
    public typealias ReplaceOrder = Service<OrderReplacement, Result<Order, BrokerError>>
}
