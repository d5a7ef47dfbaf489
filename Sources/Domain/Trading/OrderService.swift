/// Placing and managing orders, for brokers whose API takes them. A use site that places orders takes
/// `some OrderService` and can reach nothing else of the broker.
///
/// A refusal of the order itself throws `.orderRejected(reason:)` or `.insufficientBuyingPower`; transport
/// and credential failures throw the usual `BrokerError`s.
public protocol OrderService: BrandedService {
    /// Orders in `status`'s group, newest first.
    func orders(status: OrderStatusFilter) async throws(BrokerError) -> [Order]
    /// Sends `request`; returns the order as the broker accepted it (usually `.pending` or `.accepted`).
    func place(_ request: OrderRequest) async throws(BrokerError) -> Order
    /// Asks the broker to cancel the open order `id`. Returns once the broker has taken the request; the
    /// order's own status says when the cancel is done.
    func cancel(id: OrderID) async throws(BrokerError)
    /// Replaces open order `id` by `request` (a new price or quantity); returns the new order.
    func replace(id: OrderID, _ request: OrderRequest) async throws(BrokerError) -> Order
}
