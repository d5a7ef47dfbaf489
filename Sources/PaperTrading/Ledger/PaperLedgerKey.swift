import Domain
import TextSafety

/// The member names of a ledger record, every record type's together: a record is one flat JSON object,
/// read through one container (`PaperLedgerRecord`'s coding), because a replay of 200,000 lines spends
/// most of its time in decoding and each nested object or second look at the same object costs a
/// scan of it. Unknown members are ignored, so a later version may add some.
enum PaperLedgerKey: String, CodingKey {
    case type
    case startingCash
    case orderID, fillID, replacedBy
    case symbol, side, quantity, orderType, limit, stop, timeInForce, clientOrderID
    case expiresAt, bid, ask, last
    case worksAs, lastTrade
    case price, priceSource, commission
    case reason
    case time
}

typealias PaperLedgerDecoding = KeyedDecodingContainer<PaperLedgerKey>
typealias PaperLedgerEncoding = KeyedEncodingContainer<PaperLedgerKey>

extension OrderType {
    /// The type named `name` (`market`, `limit`, `stop`, `stop_limit`) with the `limit` and `stop`
    /// members it needs, read from a ledger record whose type member is `typeKey`.
    static func decode(named typeKey: PaperLedgerKey, from container: PaperLedgerDecoding) throws -> OrderType {
        let name = try container.decode(String.self, forKey: typeKey)
        switch name {
        case "market": return .market
        case "limit": return .limit(try container.decode(ExactDecimal.self, forKey: .limit))
        case "stop": return .stop(try container.decode(ExactDecimal.self, forKey: .stop))
        case "stop_limit":
            return .stopLimit(
                stop: try container.decode(ExactDecimal.self, forKey: .stop),
                limit: try container.decode(ExactDecimal.self, forKey: .limit))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: typeKey, in: container,
                debugDescription: "order type \"\(VisibleText.escaped(name))\" is not market, limit, stop or stop_limit")
        }
    }

    /// Writes the type's name under `typeKey` and its prices under `limit` and `stop`.
    func encode(named typeKey: PaperLedgerKey, to container: inout PaperLedgerEncoding) throws {
        try container.encode(name, forKey: typeKey)
        try container.encodeIfPresent(limitPrice, forKey: .limit)
        try container.encodeIfPresent(stopPrice, forKey: .stop)
    }
}
