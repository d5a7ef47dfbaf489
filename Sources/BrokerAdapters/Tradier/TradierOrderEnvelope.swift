/// The body of `GET /v1/accounts/{id}/orders/{order_id}`: `{"order":{…}}`, one order as in the list
/// (Tradier's "Get an individual order" docs).
public struct TradierOrderEnvelope: Decodable, Sendable {
    public var order: TradierOrder
}
