/// One element of `quotes.quote` from `GET /v1/markets/quotes` (reference §1.2), equity fields only;
/// option fields are ignored. Prices are numbers or `null`, read exactly; dates are epoch milliseconds.
public struct TradierQuote: Decodable, Sendable, Hashable {
    /// Tradier's spelling: share classes use a slash (`BRK/B`).
    public var symbol: String
    public var description: String?
    public var exchange: String?
    public var type: String?
    public var last: FlexibleExactDecimal?
    public var change: FlexibleExactDecimal?
    public var volume: FlexibleInt64?
    public var open: FlexibleExactDecimal?
    public var high: FlexibleExactDecimal?
    public var low: FlexibleExactDecimal?
    /// `null` during the session.
    public var close: FlexibleExactDecimal?
    public var bid: FlexibleExactDecimal?
    public var ask: FlexibleExactDecimal?
    /// Percent units: `-0.59` means −0.59 %.
    public var changePercentage: FlexibleExactDecimal?
    public var averageVolume: FlexibleInt64?
    public var lastVolume: FlexibleInt64?
    /// Epoch milliseconds of the last trade.
    public var tradeDate: FlexibleInt64?
    public var previousClose: FlexibleExactDecimal?
    public var week52High: FlexibleExactDecimal?
    public var week52Low: FlexibleExactDecimal?
    /// Round lots ("size (in hundreds)").
    public var bidSize: FlexibleInt64?
    public var bidExchange: String?
    public var bidDate: FlexibleInt64?
    public var askSize: FlexibleInt64?
    public var askExchange: String?
    public var askDate: FlexibleInt64?
    public var rootSymbols: String?

    enum CodingKeys: String, CodingKey {
        case symbol, description, type, last, change, volume, open, high, low, close, bid, ask
        case exchange = "exch"
        case changePercentage = "change_percentage"
        case averageVolume = "average_volume"
        case lastVolume = "last_volume"
        case tradeDate = "trade_date"
        case previousClose = "prevclose"
        case week52High = "week_52_high"
        case week52Low = "week_52_low"
        case bidSize = "bidsize"
        case bidExchange = "bidexch"
        case bidDate = "bid_date"
        case askSize = "asksize"
        case askExchange = "askexch"
        case askDate = "ask_date"
        case rootSymbols = "root_symbols"
    }
}
