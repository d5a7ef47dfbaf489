import TextSafety

/// How an order is priced. The prices live in the case that needs them, so a limit order without a
/// limit or a market order with one cannot be written down. `OrderRequest` checks the prices are positive.
public enum OrderType: Sendable, Hashable {
    /// At the market: a buy at the ask, a sell at the bid.
    case market
    /// At `limit` or better.
    case limit(ExactDecimal)
    /// Becomes a market order once a trade prints at or through `stop` (a buy at or above, a sell at or below).
    case stop(ExactDecimal)
    /// Becomes a limit order at `limit` once a trade prints at or through `stop`.
    case stopLimit(stop: ExactDecimal, limit: ExactDecimal)

    /// The limit price, for `limit` and `stopLimit`.
    public var limitPrice: ExactDecimal? {
        switch self {
        case .limit(let limit), .stopLimit(_, let limit): limit
        case .market, .stop: nil
        }
    }

    /// The stop price, for `stop` and `stopLimit`.
    public var stopPrice: ExactDecimal? {
        switch self {
        case .stop(let stop), .stopLimit(let stop, _): stop
        case .market, .limit: nil
        }
    }

    /// The wire word brokers share: `market`, `limit`, `stop`, `stop_limit` (Alpaca's `type`, Tradier's `type`).
    public var name: String {
        switch self {
        case .market: "market"
        case .limit: "limit"
        case .stop: "stop"
        case .stopLimit: "stop_limit"
        }
    }
}

extension OrderType: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, limit, stop
    }

    /// `{"type":"limit","limit":"150.25"}`: the broker's words, prices as exact strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .type)
        try container.encodeIfPresent(limitPrice, forKey: .limit)
        try container.encodeIfPresent(stopPrice, forKey: .stop)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .type)
        switch name {
        case "market": self = .market
        case "limit": self = .limit(try container.decode(ExactDecimal.self, forKey: .limit))
        case "stop": self = .stop(try container.decode(ExactDecimal.self, forKey: .stop))
        case "stop_limit":
            self = .stopLimit(
                stop: try container.decode(ExactDecimal.self, forKey: .stop),
                limit: try container.decode(ExactDecimal.self, forKey: .limit))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container,
                debugDescription: "order type \"\(VisibleText.escaped(name))\" is not market, limit, stop or stop_limit")
        }
    }
}
