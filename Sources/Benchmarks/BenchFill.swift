import Foundation

/// A fill as the paper broker's ledger will hold one (issue 15): ids, the order's terms, exact amounts
/// written as decimal text, enums and a timestamp. Defined here, not taken from the app, so the ledger
/// benchmark measures the same shape whatever the real record grows into.
struct BenchFill: Codable, Sendable, Equatable {
    enum Side: String, Codable, Sendable { case buy, sell, sellShort, buyToCover }
    enum PriceSource: String, Codable, Sendable { case ask, bid, last }

    /// An exact amount in ten-thousandths, written as decimal text ("187.2500") as exact money is.
    struct Amount: Codable, Sendable, Equatable {
        var tenThousandths: Int64

        init(tenThousandths: Int64) { self.tenThousandths = tenThousandths }

        init(from decoder: any Decoder) throws {
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let value = Self.tenThousandths(text) else {
                throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "not an amount: \(text)"))
            }
            tenThousandths = value
        }

        /// "187.2500" → 1872500: digits, a point, exactly four digits, read from the UTF-8 in one pass.
        private static func tenThousandths(_ text: String) -> Int64? {
            var value: Int64 = 0
            var fractionDigits = -1
            for byte in text.utf8 {
                if byte == UInt8(ascii: ".") {
                    guard fractionDigits < 0 else { return nil }
                    fractionDigits = 0
                    continue
                }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                if fractionDigits >= 0 { fractionDigits += 1 }
            }
            return fractionDigits == 4 ? value : nil
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            let fraction = String(tenThousandths % 10_000)
            try container.encode("\(tenThousandths / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)")
        }
    }

    var kind = "fill"
    var fillID: String
    var orderID: String
    var clientOrderID: String
    var broker: String
    var symbol: String
    var side: Side
    var quantity: Amount
    var price: Amount
    var commission: Amount
    var priceSource: PriceSource
    var executedAt: Date

    /// The `index`th fill of a deterministic series over a few symbols.
    static func sample(_ index: Int) -> BenchFill {
        let symbols = ["AAPL", "MSFT", "NVDA", "SPY", "BRK.B", "^GSPC"]
        return BenchFill(
            fillID: "F\(100_000 + index)", orderID: "P-\(50_000 + index / 2)", clientOrderID: "cb-\(index * 7_919 % 1_000_003)",
            broker: "paper", symbol: symbols[index % symbols.count], side: index % 3 == 0 ? .sell : .buy,
            quantity: Amount(tenThousandths: Int64(1 + index % 500) * 10_000),
            price: Amount(tenThousandths: 1_872_500 + Int64(index % 1_000) * 25),
            commission: Amount(tenThousandths: 10_000), priceSource: index % 2 == 0 ? .ask : .bid,
            executedAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(index) * 0.25))
    }
}
