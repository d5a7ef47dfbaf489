import Domain
import Foundation

/// Decodes Tradier market WebSocket frames: one JSON object per frame, ending in `\n` when the payload
/// asks for `linebreak` (reference §1.5). Several whitespace-separated objects in one frame are read too,
/// in case a frame ever carries more than one line. A pure function on the hot path, fuzzed by tests.
///
/// Tradier mixes types: quote prices are numbers and quote dates strings, while trade and summary send
/// every number as a string, so every number is read from either. Anything the watchlist cannot use is
/// left out rather than failing the frame: `timesale`, unknown types, messages missing their symbol or
/// price, and values that are valid JSON but not objects. Only bytes that are not JSON throw.
public enum TradierStreamDecoder: StreamFrameDecoder {
    public static func decode(
        utf8 bytes: UnsafeBufferPointer<UInt8>, into events: inout [TradierStreamEvent]
    ) throws(StreamJSONScanner.Failure) {
        var scanner = StreamJSONScanner(bytes)
        let names = Self.names
        while !scanner.isAtEnd {
            if scanner.peek() == UInt8(ascii: "{") {
                if let event = try Self.event(&scanner, names) { events.append(event) }
            } else {
                try scanner.skipWholeValue()
            }
        }
    }

    private typealias Name = StreamJSONScanner.Name

    /// Keys and type tags, loaded once per frame: a `static let` read per comparison costs a `swift_once`
    /// call each time.
    private struct Names {
        let type = Name("type")
        let symbol = Name("symbol")
        let price = Name("price")
        let last = Name("last")
        let cumulativeVolume = Name("cvol")
        let date = Name("date")
        let bid = Name("bid")
        let ask = Name("ask")
        let bidDate = Name("biddate")
        let askDate = Name("askdate")
        let previousClose = Name("prevClose")
        let error = Name("error")
        let tradeType = Name("trade")
        let tradexType = Name("tradex")
        let quoteType = Name("quote")
        let summaryType = Name("summary")
    }

    private static let names = Names()

    private static func event(_ scanner: inout StreamJSONScanner, _ names: Names) throws(StreamJSONScanner.Failure) -> TradierStreamEvent? {
        var type: Name?
        var symbol: String?
        var price: ExactDecimal?
        var last: ExactDecimal?
        var cumulativeVolume: Int64?
        var date: Int64?
        var bid: ExactDecimal?
        var ask: ExactDecimal?
        var bidDate: Int64?
        var askDate: Int64?
        var previousClose: ExactDecimal?
        var error: String?
        try scanner.object { (scanner: inout StreamJSONScanner, key: Name) throws(StreamJSONScanner.Failure) in
            switch key {
            case names.type: type = try scanner.name()
            case names.symbol: symbol = try scanner.string()
            case names.price: price = try scanner.numericExactDecimal()
            case names.last: last = try scanner.numericExactDecimal()
            case names.cumulativeVolume: cumulativeVolume = try scanner.numericInt64()
            case names.date: date = try scanner.numericInt64()
            case names.bid: bid = try scanner.numericExactDecimal()
            case names.ask: ask = try scanner.numericExactDecimal()
            case names.bidDate: bidDate = try scanner.numericInt64()
            case names.askDate: askDate = try scanner.numericInt64()
            case names.previousClose: previousClose = try scanner.numericExactDecimal()
            case names.error: error = try scanner.string()
            default: try scanner.skipValue()
            }
        }
        if let error { return .error(message: error) }
        switch type {
        case names.tradeType, names.tradexType:
            guard let symbol, let price = price ?? last else { return nil }
            return .trade(symbol: symbol, price: price, cumulativeVolume: cumulativeVolume, timestamp: Self.date(date))
        case names.quoteType:
            guard let symbol else { return nil }
            let latest = switch (bidDate, askDate) {
            case (let bidDate?, let askDate?): max(bidDate, askDate)
            case (let one?, nil), (nil, let one?): one
            case (nil, nil): Int64?.none
            }
            return .quote(symbol: symbol, bidPrice: bid, askPrice: ask, timestamp: Self.date(latest))
        case names.summaryType:
            guard let symbol, let previousClose else { return nil }
            return .summary(symbol: symbol, previousClose: previousClose)
        default:
            return nil
        }
    }

    /// Epoch milliseconds; 0 or less is "no date" rather than 1970.
    private static func date(_ milliseconds: Int64?) -> Date? {
        guard let milliseconds, milliseconds > 0 else { return nil }
        return EpochTimestamp.milliseconds.date(from: milliseconds)
    }
}
