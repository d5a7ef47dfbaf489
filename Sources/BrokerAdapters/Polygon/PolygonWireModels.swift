import Domain

// Polygon REST wire types, exactly as sent (reference §2.4). Keys are case-sensitive (`P` ask, `p` bid),
// so every type spells its CodingKeys out. Timestamps differ in unit inside one response: `updated`,
// `lastQuote.t` and `lastTrade.t` are nanoseconds, `min.t` is milliseconds. The nanoseconds (~1.7e18) are
// above 2^53 and decode as Int64, never through Double; prices and share counts (which may carry a
// fraction) decode as `ExactDecimal`, from the number's digits.

/// `GET /v2/snapshot/locale/us/markets/stocks/tickers/{ticker}`.
public struct PolygonSnapshotResponse: Decodable, Sendable, Hashable {
    public var requestID: String?
    /// "OK" (or "DELAYED" on delayed plans); error bodies use "ERROR", "NOT_AUTHORIZED", "NOT_FOUND".
    public var status: String
    public var ticker: PolygonTickerSnapshot?

    enum CodingKeys: String, CodingKey {
        case requestID = "request_id"
        case status
        case ticker
    }
}

public struct PolygonTickerSnapshot: Decodable, Sendable, Hashable {
    public var ticker: String
    public var todaysChange: ExactDecimal?
    public var todaysChangePercent: ExactDecimal?
    /// Nanoseconds.
    public var updated: Int64?
    public var day: PolygonDayBar?
    public var lastQuote: PolygonLastQuote?
    public var lastTrade: PolygonLastTrade?
    public var minute: PolygonMinuteBar?
    public var previousDay: PolygonDayBar?

    enum CodingKeys: String, CodingKey {
        case ticker
        case todaysChange
        case todaysChangePercent = "todaysChangePerc"
        case updated
        case day
        case lastQuote
        case lastTrade
        case minute = "min"
        case previousDay = "prevDay"
    }
}

/// `day` and `prevDay`.
public struct PolygonDayBar: Decodable, Sendable, Hashable {
    public var open: ExactDecimal?
    public var high: ExactDecimal?
    public var low: ExactDecimal?
    public var close: ExactDecimal?
    /// A share count, sent as a JSON number that may carry a fraction.
    public var volume: ExactDecimal?
    public var volumeWeightedPrice: ExactDecimal?

    enum CodingKeys: String, CodingKey {
        case open = "o"
        case high = "h"
        case low = "l"
        case close = "c"
        case volume = "v"
        case volumeWeightedPrice = "vw"
    }
}

/// `min`: the latest minute bar.
public struct PolygonMinuteBar: Decodable, Sendable, Hashable {
    public var accumulatedVolume: ExactDecimal?
    /// Milliseconds, unlike the other stamps in the snapshot.
    public var startMilliseconds: Int64?
    public var transactions: Int?
    public var open: ExactDecimal?
    public var high: ExactDecimal?
    public var low: ExactDecimal?
    public var close: ExactDecimal?
    public var volume: ExactDecimal?
    public var volumeWeightedPrice: ExactDecimal?

    enum CodingKeys: String, CodingKey {
        case accumulatedVolume = "av"
        case startMilliseconds = "t"
        case transactions = "n"
        case open = "o"
        case high = "h"
        case low = "l"
        case close = "c"
        case volume = "v"
        case volumeWeightedPrice = "vw"
    }
}

/// `lastQuote`: upper-case `P`/`S` are the ASK, lower-case `p`/`s` the BID.
public struct PolygonLastQuote: Decodable, Sendable, Hashable {
    public var askPrice: ExactDecimal?
    public var askSize: ExactDecimal?
    public var bidPrice: ExactDecimal?
    public var bidSize: ExactDecimal?
    /// Nanoseconds.
    public var nanoseconds: Int64?

    enum CodingKeys: String, CodingKey {
        case askPrice = "P"
        case askSize = "S"
        case bidPrice = "p"
        case bidSize = "s"
        case nanoseconds = "t"
    }
}

/// `lastTrade`. `c` (condition codes) can be null.
public struct PolygonLastTrade: Decodable, Sendable, Hashable {
    public var conditions: [Int]?
    public var tradeID: String?
    public var price: ExactDecimal?
    public var size: ExactDecimal?
    /// SIP timestamp, nanoseconds.
    public var nanoseconds: Int64?
    public var exchange: Int?

    enum CodingKeys: String, CodingKey {
        case conditions = "c"
        case tradeID = "i"
        case price = "p"
        case size = "s"
        case nanoseconds = "t"
        case exchange = "x"
    }
}

/// Polygon's error bodies: `{"status":"ERROR","request_id":"…","error":"Unknown API Key"}` and
/// `{"status":"NOT_AUTHORIZED","request_id":"…","message":"You are not entitled to this data. …"}`.
public struct PolygonErrorBody: Decodable, Sendable, Hashable {
    public var status: String?
    public var requestID: String?
    public var error: String?
    public var message: String?

    enum CodingKeys: String, CodingKey {
        case status
        case requestID = "request_id"
        case error
        case message
    }

    /// Whichever text the body carries.
    public var text: String? { error ?? message }
}
