import Domain
import Foundation

// Alpaca Market Data v2 REST, exactly as sent (reference §3.1). Every field is optional: Alpaca sends
// `null` for any sub-object and adds fields over time; unknown keys are ignored. Timestamps stay strings
// here (RFC 3339, 0–9 fraction digits); the adapter parses them, so one bad timestamp fails one row.
// Prices are `ExactDecimal`, read from the number's digits (never through `Double`).

/// `GET /v2/stocks/snapshots`: a top-level map symbol → snapshot with no wrapper key; `null` for a symbol
/// Alpaca does not know. (Crypto snapshots are wrapped in `{"snapshots":…}`; stocks are not.)
public struct AlpacaSnapshots: Decodable, Sendable {
    public enum Entry: Sendable {
        case snapshot(AlpacaSnapshot)
        /// Alpaca's answer for an unknown symbol.
        case null
        /// This symbol's value had an unexpected shape; the others still decode.
        case undecodable(String)
    }

    /// Keyed by the symbol as Alpaca spells it (the upper-case symbol we asked for).
    public let entries: [String: Entry]
    /// Set when the body is an error object `{"message":…}` instead of a map. No symbol is spelled
    /// `message` (symbols are upper case), so this cannot shadow a real entry.
    public let message: String?

    private struct SymbolKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SymbolKey.self)
        var entries: [String: Entry] = [:]
        var message: String?
        for key in container.allKeys {
            if try container.decodeNil(forKey: key) {
                entries[key.stringValue] = .null
                continue
            }
            if key.stringValue == "message", let text = try? container.decode(String.self, forKey: key) {
                message = text
                continue
            }
            do {
                entries[key.stringValue] = .snapshot(try container.decode(AlpacaSnapshot.self, forKey: key))
            } catch {
                entries[key.stringValue] = .undecodable(Self.summary(of: error))
            }
        }
        self.entries = entries
        self.message = message
    }

    /// A short reason, without the decoder's long debug text.
    private static func summary(of error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "unexpected snapshot shape" }
        let path: [any CodingKey]
        switch decodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context):
            path = context.codingPath
        @unknown default:
            path = []
        }
        // Drop the symbol itself, which leads every path.
        let field = path.dropFirst().map(\.stringValue).joined(separator: ".")
        return field.isEmpty ? "snapshot is not an object" : "unexpected value at \(field)"
    }
}

/// One symbol's snapshot; every part may be `null`.
public struct AlpacaSnapshot: Decodable, Sendable, Hashable {
    public let latestTrade: AlpacaTrade?
    public let latestQuote: AlpacaQuote?
    public let minuteBar: AlpacaBar?
    public let dailyBar: AlpacaBar?
    public let prevDailyBar: AlpacaBar?

    enum CodingKeys: String, CodingKey {
        case latestTrade, latestQuote, minuteBar, dailyBar, prevDailyBar
    }
}

/// `{"t":…,"x":"V","p":227.52,"s":100,"c":["@"],"i":62700,"z":"C"}`
public struct AlpacaTrade: Decodable, Sendable, Hashable {
    /// RFC 3339, UTC, 0–9 fraction digits.
    public let timestamp: String?
    public let exchange: String?
    public let price: ExactDecimal?
    public let size: Int64?
    /// Condition codes; `" "` (a space) is a valid one.
    public let conditions: [String]?
    public let id: Int64?
    public let tape: String?

    enum CodingKeys: String, CodingKey {
        case timestamp = "t", exchange = "x", price = "p", size = "s", conditions = "c", id = "i", tape = "z"
    }
}

/// `{"t":…,"ax":"V","ap":227.53,"as":2,"bx":"V","bp":227.5,"bs":3,"c":["R"],"z":"C"}`
public struct AlpacaQuote: Decodable, Sendable, Hashable {
    public let timestamp: String?
    public let askExchange: String?
    public let askPrice: ExactDecimal?
    public let askSize: Int64?
    public let bidExchange: String?
    public let bidPrice: ExactDecimal?
    public let bidSize: Int64?
    public let conditions: [String]?
    public let tape: String?

    enum CodingKeys: String, CodingKey {
        case timestamp = "t", askExchange = "ax", askPrice = "ap", askSize = "as"
        case bidExchange = "bx", bidPrice = "bp", bidSize = "bs", conditions = "c", tape = "z"
    }
}

/// `{"t":…,"o":…,"h":…,"l":…,"c":…,"v":812340,"n":10233,"vw":227.93}`. A daily bar's `t` is midnight in
/// New York written in UTC (`04:00Z` or `05:00Z`).
public struct AlpacaBar: Decodable, Sendable, Hashable {
    public let timestamp: String?
    public let open: ExactDecimal?
    public let high: ExactDecimal?
    public let low: ExactDecimal?
    public let close: ExactDecimal?
    public let volume: Int64?
    public let tradeCount: Int64?
    public let vwap: ExactDecimal?

    enum CodingKeys: String, CodingKey {
        case timestamp = "t", open = "o", high = "h", low = "l", close = "c", volume = "v", tradeCount = "n", vwap = "vw"
    }
}
