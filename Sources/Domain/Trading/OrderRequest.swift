/// What an order ticket sends: everything a broker needs to place one order. The initializer checks what
/// makes an order meaningless anywhere (a bad symbol, a quantity or price of zero or less); what depends
/// on the account or the market (cash, shares held, price ticks) is the broker's to refuse.
public struct OrderRequest: Sendable, Hashable {
    /// Upper-cased and valid (`Symbol.normalize`).
    public let symbol: String
    public let side: OrderSide
    /// Shares, positive; sides say the direction.
    public let quantity: ExactDecimal
    public let type: OrderType
    public let timeInForce: TimeInForce
    public let clientOrderID: ClientOrderID

    /// Why a request cannot be made, in words for the ticket's status line.
    public enum Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        case symbol(Symbol.ValidationError)
        /// Zero or negative shares.
        case quantity(ExactDecimal)
        /// A zero or negative price; `field` is "limit" or "stop".
        case price(field: String, ExactDecimal)

        public var description: String {
            switch self {
            case .symbol(let error): error.description
            case .quantity(let quantity): "quantity \(quantity) must be more than 0"
            case .price(let field, let price): "\(field) price \(price) must be more than 0"
            }
        }
    }

    public init(
        symbol: String, side: OrderSide, quantity: ExactDecimal, type: OrderType,
        timeInForce: TimeInForce, clientOrderID: ClientOrderID
    ) throws(Invalid) {
        switch Symbol.normalize(symbol) {
        case .success(let normalized): self.symbol = normalized
        case .failure(let error): throw .symbol(error)
        }
        guard quantity.isPositive else { throw .quantity(quantity) }
        if let limit = type.limitPrice, !limit.isPositive { throw .price(field: "limit", limit) }
        if let stop = type.stopPrice, !stop.isPositive { throw .price(field: "stop", stop) }
        self.side = side
        self.quantity = quantity
        self.type = type
        self.timeInForce = timeInForce
        self.clientOrderID = clientOrderID
    }

    /// The same order with another type, e.g. a stop that has triggered and now works as `.market`.
    public func with(type newType: OrderType) throws(Invalid) -> OrderRequest {
        try OrderRequest(
            symbol: symbol, side: side, quantity: quantity, type: newType,
            timeInForce: timeInForce, clientOrderID: clientOrderID)
    }
}

extension OrderRequest: Codable {
    private enum CodingKeys: String, CodingKey {
        case symbol, side, quantity, type, timeInForce, clientOrderID
    }

    /// Decoding checks the same rules as the initializer, so a journal cannot smuggle in an order the
    /// ticket could not make.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        do {
            try self.init(
                symbol: container.decode(String.self, forKey: .symbol),
                side: container.decode(OrderSide.self, forKey: .side),
                quantity: container.decode(ExactDecimal.self, forKey: .quantity),
                type: container.decode(OrderType.self, forKey: .type),
                timeInForce: container.decode(TimeInForce.self, forKey: .timeInForce),
                clientOrderID: container.decode(ClientOrderID.self, forKey: .clientOrderID))
        } catch let invalid as Invalid {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "invalid order: \(invalid)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(symbol, forKey: .symbol)
        try container.encode(side, forKey: .side)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(type, forKey: .type)
        try container.encode(timeInForce, forKey: .timeInForce)
        try container.encode(clientOrderID, forKey: .clientOrderID)
    }
}
