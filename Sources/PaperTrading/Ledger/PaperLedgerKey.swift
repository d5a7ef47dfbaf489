import Domain
import Stores
import TextSafety

/// The member names of a ledger record, every record type's together: a record is one flat JSON object,
/// read through one container (`PaperLedgerRecord`'s coding), because a replay of 200,000 lines spends
/// most of its time in decoding and each nested object or second look at the same object costs a
/// scan of it. Unknown members are ignored, so a later version may add some.
enum PaperLedgerKey: String, CodingKey, CaseIterable {
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

    /// `decode(named:from:)` for a replay's fast path (`PaperLedgerMembers`): the type whose name is
    /// `name`, nil wherever that one would throw.
    static func parse(named name: FlatRecordValue?, from members: PaperLedgerMembers) -> OrderType? {
        guard let name else { return nil }
        if name.isString("market") { return .market }
        if name.isString("limit") { return PaperLedgerMembers.decimal(members.limit).map(OrderType.limit) }
        if name.isString("stop") { return PaperLedgerMembers.decimal(members.stop).map(OrderType.stop) }
        if name.isString("stop_limit") {
            guard let stop = PaperLedgerMembers.decimal(members.stop), let limit = PaperLedgerMembers.decimal(members.limit) else {
                return nil
            }
            return .stopLimit(stop: stop, limit: limit)
        }
        return nil
    }

    /// Writes the type's name under `typeKey` and its prices under `limit` and `stop`.
    func encode(named typeKey: PaperLedgerKey, to container: inout PaperLedgerEncoding) throws {
        try container.encode(name, forKey: typeKey)
        try container.encodeIfPresent(limitPrice, forKey: .limit)
        try container.encodeIfPresent(stopPrice, forKey: .stop)
    }
}
