import Domain
import TextSafety

/// One snapshot entry → one watchlist row.
enum AlpacaQuoteAdapter {
    /// `symbol` is spelled as the user wrote it. Last is the latest trade's price, else the mid of the
    /// latest quote (exact, to 8 decimals); the timestamp is that trade's (or quote's) `t`. Bid and ask
    /// come from the latest quote, the previous close from `prevDailyBar.c`, the volume from `dailyBar.v`.
    static func quote(symbol: String, entry: AlpacaSnapshots.Entry?) -> Result<CommonQuote, BrokerError> {
        switch entry {
        case nil, .null:
            // `null` is Alpaca's word for an unknown symbol; a missing key means the same (reference §3.1).
            return .failure(.unknownSymbol(symbol))
        case .undecodable(let reason):
            return .failure(.badResponse("alpaca snapshot for \(symbol): \(reason)"))
        case .snapshot(let snapshot):
            return quote(symbol: symbol, snapshot: snapshot)
        }
    }

    static func quote(symbol: String, snapshot: AlpacaSnapshot) -> Result<CommonQuote, BrokerError> {
        let quote = snapshot.latestQuote
        // The IEX feed reports a side with no order as price 0; that is "no bid", not a bid of 0.
        let bid = quote?.bidPrice.flatMap(positive)
        let ask = quote?.askPrice.flatMap(positive)

        let last: ExactDecimal
        let stamp: String?
        if let trade = snapshot.latestTrade, let price = trade.price.flatMap(positive) {
            last = price
            stamp = trade.timestamp
        } else if let bid, let ask {
            last = .midpoint(bid, ask)
            stamp = quote?.timestamp
        } else {
            return .failure(.badResponse("alpaca sent no trade or two-sided quote for \(symbol)"))
        }
        guard let stamp else {
            return .failure(.badResponse("alpaca sent no timestamp for \(symbol)"))
        }
        guard let timestamp = RFC3339.instant(from: stamp) else {
            return .failure(.badResponse("alpaca timestamp for \(symbol) is not RFC 3339: \(VisibleText.escaped(String(stamp.prefix(40))))"))
        }
        return .success(CommonQuote(
            symbol: symbol, last: last, timestamp: timestamp.date, bid: bid, ask: ask,
            previousClose: snapshot.prevDailyBar?.close, volume: snapshot.dailyBar?.volume
        ))
    }

    private static func positive(_ price: ExactDecimal) -> ExactDecimal? {
        price.isPositive ? price : nil
    }
}
