/// One row of the watchlist: a symbol as quoted by one broker. Its `id` is `brand:SYMBOL`.
public struct QuoteKey: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let brandID: String
    public let symbol: String

    public init(brandID: String, symbol: String) {
        self.brandID = brandID
        self.symbol = symbol
    }

    public var id: String { "\(brandID):\(symbol)" }
    public var description: String { id }

    /// Rows sort by symbol, then brand id.
    public static func < (lhs: QuoteKey, rhs: QuoteKey) -> Bool {
        (lhs.symbol, lhs.brandID) < (rhs.symbol, rhs.brandID)
    }
}
