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
        self.init(brand: Brand(brandID), symbol: symbol)
    }

    /// The key of `symbol` on a broker whose half of the hash is already done: the hub makes a key for
    /// every quote, always of one of a few brokers, and hashing the broker's id each time was half the
    /// cost of making one. Equal to `QuoteKey(brandID: brand.id, symbol:)`, hash included.
    public init(brand: Brand, symbol: String) {
        self.brandID = brand.id
        self.symbol = symbol
        var hasher = brand.hasher
        hasher.combine(symbol)
        hashOfStrings = hasher.finalize()
    }

    /// A broker's id, with the hasher every key of that broker starts from (the id fed to it).
    public struct Brand: Sendable {
        public let id: String
        fileprivate let hasher: Hasher

        public init(_ id: String) {
            self.id = id
            var hasher = Hasher()
            hasher.combine(id)
            self.hasher = hasher
        }
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

    /// What a `Dictionary` or `Set` asks for at every lookup. `hashOfStrings` is already a keyed SipHash
    /// of both strings, so a second full SipHash of it with the table's seed (the default through
    /// `hash(into:)`) bought nothing and cost about 250 instructions a lookup, a twentieth of the
    /// market-data thread: a key is looked up three to four times per quote. The seed still changes the
    /// result per table, mixed in by a murmur3-style finalizer so that tables of different seeds order
    /// the same keys differently, which is what the seed is for.
    public func _rawHashValue(seed: Int) -> Int {
        var mixed = UInt64(truncatingIfNeeded: hashOfStrings ^ seed)
        mixed = (mixed ^ (mixed >> 33)) &* 0xff51_afd7_ed55_8ccd
        mixed = (mixed ^ (mixed >> 33)) &* 0xc4ce_b9fe_1a85_ec53
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 33))
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
