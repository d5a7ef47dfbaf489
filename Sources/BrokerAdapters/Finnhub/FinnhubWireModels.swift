import Domain

/// `GET /api/v1/quote`, exactly as Finnhub sends it (reference §4.1):
/// `{"c":227.52,"d":-1.34,"dp":-0.5855,"h":229.41,"l":226.7,"o":228.9,"pc":228.86,"t":1731528912}`.
/// An unknown symbol, or one the plan does not cover, is a 200 with zeros and `"d":null,"dp":null`.
/// Numbers are read exactly (`ExactDecimal`, from their digits).
public struct FinnhubQuote: Decodable, Sendable, Hashable {
    public var current: ExactDecimal
    public var change: ExactDecimal?
    public var percentChange: ExactDecimal?
    public var high: ExactDecimal
    public var low: ExactDecimal
    public var open: ExactDecimal
    public var previousClose: ExactDecimal
    /// Unix seconds, not milliseconds; 0 means "no data".
    public var time: Int64

    enum CodingKeys: String, CodingKey {
        case current = "c"
        case change = "d"
        case percentChange = "dp"
        case high = "h"
        case low = "l"
        case open = "o"
        case previousClose = "pc"
        case time = "t"
    }

    public init(
        current: ExactDecimal, change: ExactDecimal?, percentChange: ExactDecimal?, high: ExactDecimal, low: ExactDecimal, open: ExactDecimal,
        previousClose: ExactDecimal, time: Int64
    ) {
        self.current = current
        self.change = change
        self.percentChange = percentChange
        self.high = high
        self.low = low
        self.open = open
        self.previousClose = previousClose
        self.time = time
    }

    /// Finnhub's way of saying it has nothing for the symbol (Finnhub-API issues #54, #332).
    public var hasNoData: Bool { time == 0 }
}

/// Finnhub's error body, e.g. 403 `{"error":"You don't have access to this resource."}`. The 401 and 429
/// bodies are UNVERIFIED (reference §4.1, §7); we assume the same shape and never depend on the text.
public struct FinnhubErrorBody: Decodable, Sendable, Hashable {
    public var error: String

    enum CodingKeys: String, CodingKey {
        case error
    }
}
