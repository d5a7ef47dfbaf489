/// What a replace sends: the open order to change and the order it becomes (a new price, quantity or time
/// in force; brokers keep the symbol and side).
public struct OrderReplacement: Sendable, Hashable {
    public var id: OrderID
    public var request: OrderRequest

    public init(id: OrderID, request: OrderRequest) {
        self.id = id
        self.request = request
    }
}
