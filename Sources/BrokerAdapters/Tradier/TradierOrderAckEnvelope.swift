/// Tradier's answer to placing, modifying or cancelling an order: the order's id and `"status":"ok"`, not
/// the order itself (`{"order":{"id":257459,"status":"ok","partner_id":"c4998eb7-…"}}`; Tradier's "Place an
/// Equity Order" docs, reference §8.2, the field list of `vitali-karmanov/tradier-dotnet-client`'s
/// `OrderResponse`). A refusal comes as an `errors` body instead, with 400 or inside a 200.
public struct TradierOrderAckEnvelope: Decodable, Sendable, Hashable {
    public var order: Ack

    public struct Ack: Decodable, Sendable, Hashable {
        public var id: FlexibleIdentifier
        /// `ok` when Tradier took the request.
        public var status: String
        public var partnerID: String?

        enum CodingKeys: String, CodingKey {
            case id, status
            case partnerID = "partner_id"
        }
    }
}
