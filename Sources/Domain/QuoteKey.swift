/// One row of the watchlist: a symbol as quoted by one broker. Its `id` is `brand:SYMBOL`.
public struct QuoteKey: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let brandID: String
    public let symbol: String
    /// Both strings hashed once, at creation. Keys are made once per quote and then looked up many
    /// times (the hub's cache and slots, every subscriber's batch, the quote store), and hashing two
    /// strings each time was a twentieth of the CPU per delivery. Never persisted: `Hasher` is seeded
    /// per process.
    private let hashOfStrings: Int

    public init(brandID: String, symbol: String) {
        self.brandID = brandID
        self.symbol = symbol
        var hasher = Hasher()
        hasher.combine(brandID)
        hasher.combine(symbol)
        hashOfStrings = hasher.finalize()
    }

    public var id: String { "\(brandID):\(symbol)" }
    public var description: String { id }

    /// Rows sort by symbol, then brand id; indexes (`^GSPC`) come before stocks, as a terminal's
    /// market overview does, where plain byte order would put the caret after `ZZZZ`.
    public static func < (lhs: QuoteKey, rhs: QuoteKey) -> Bool {
        let (lhsIndex, rhsIndex) = (lhs.symbol.utf8.first == UInt8(ascii: "^"), rhs.symbol.utf8.first == UInt8(ascii: "^"))
        if lhsIndex != rhsIndex { return lhsIndex }
        return (lhs.symbol, lhs.brandID) < (rhs.symbol, rhs.brandID)
    }

    public static func == (lhs: QuoteKey, rhs: QuoteKey) -> Bool {
        lhs.hashOfStrings == rhs.hashOfStrings && lhs.symbol == rhs.symbol && lhs.brandID == rhs.brandID
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(hashOfStrings)
    }

    private enum CodingKeys: String, CodingKey {
        case brandID, symbol
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            brandID: try container.decode(String.self, forKey: .brandID),
            symbol: try container.decode(String.self, forKey: .symbol))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(brandID, forKey: .brandID)
        try container.encode(symbol, forKey: .symbol)
    }
}
