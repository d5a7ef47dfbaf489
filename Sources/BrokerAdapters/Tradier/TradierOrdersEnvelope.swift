/// The body of `GET /v1/accounts/{id}/orders`: `{"orders":{"order":[…]}}`, an object instead of the array
/// for one order, and `{"orders":"null"}` for none (reference §1.3 and §8.2; Tradier's Orders docs).
public struct TradierOrdersEnvelope: Decodable, Sendable {
    public var orders: TradierNullable<Orders>

    public var orderList: [TradierOrder] { orders.value?.order?.elements ?? [] }

    public struct Orders: Decodable, Sendable {
        public var order: OneOrMany<TradierOrder>?
    }
}
