import Domain
import Foundation

/// Decodes Finnhub trades WebSocket frames: one JSON object per frame, `{"type":"trade","data":[...]}`
/// batching trades (several per symbol possible), `{"type":"ping"}` and `{"type":"error","msg":...}`
/// (reference §4.2). A pure function on the hot path, fuzzed by tests.
///
/// `type` may come before or after `data`. Anything the watchlist cannot use is left out rather than
/// failing the frame: unknown types, trades missing their symbol, price or millisecond timestamp, and a
/// frame that is valid JSON but not an object. Prices and timestamps are read from numbers or numeric
/// strings. Only bytes that are not JSON throw.
public enum FinnhubStreamDecoder: StreamFrameDecoder {
    /// The trades of `data` are appended as they are read, and taken back if `type`, which may come
    /// after them, says the frame is not a trade frame.
    public static func decode(
        utf8 bytes: UnsafeBufferPointer<UInt8>, into events: inout [FinnhubStreamEvent]
    ) throws(StreamJSONScanner.Failure) {
        var scanner = StreamJSONScanner(bytes)
        let names = Self.names
        let start = events.count
        var type: Name?
        var message: String?
        if scanner.peek() == UInt8(ascii: "{") {
            try scanner.object { (scanner: inout StreamJSONScanner, key: Name) throws(StreamJSONScanner.Failure) in
                switch key {
                case names.type: type = try scanner.name()
                case names.data:
                    // A repeated `data` replaces the trades of the one before, as a decoded object would.
                    events.removeSubrange(start...)
                    try Self.trades(&scanner, names, into: &events)
                case names.message: message = try scanner.string()
                default: try scanner.skipValue()
                }
            }
        } else {
            try scanner.skipWholeValue()
        }
        guard scanner.isAtEnd else { throw StreamJSONScanner.Failure(offset: scanner.index, reason: "text after the frame's value") }
        if type == names.tradeType { return }
        events.removeSubrange(start...)
        switch type {
        case names.pingType: events.append(.ping)
        case names.errorType: events.append(.error(message: message ?? ""))
        default: break
        }
    }

    private typealias Name = StreamJSONScanner.Name

    /// Keys and type tags, loaded once per frame: a `static let` read per comparison costs a `swift_once`
    /// call each time.
    private struct Names {
        let type = Name("type")
        let data = Name("data")
        let message = Name("msg")
        let symbol = Name("s")
        let price = Name("p")
        let timestamp = Name("t")
        let tradeType = Name("trade")
        let pingType = Name("ping")
        let errorType = Name("error")
    }

    private static let names = Names()

    /// Appends the `data` array's usable trades to `trades`; a `data` that is not an array is skipped.
    private static func trades(
        _ scanner: inout StreamJSONScanner, _ names: Names, into trades: inout [FinnhubStreamEvent]
    ) throws(StreamJSONScanner.Failure) {
        guard scanner.peek() == UInt8(ascii: "[") else {
            try scanner.skipValue()
            return
        }
        try scanner.array { (scanner: inout StreamJSONScanner) throws(StreamJSONScanner.Failure) in
            if let trade = try Self.trade(&scanner, names) { trades.append(trade) }
        }
    }

    private static func trade(_ scanner: inout StreamJSONScanner, _ names: Names) throws(StreamJSONScanner.Failure) -> FinnhubStreamEvent? {
        guard scanner.peek() == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return nil
        }
        var symbol: String?
        var price: ExactDecimal?
        var milliseconds: Int64?
        try scanner.object { (scanner: inout StreamJSONScanner, key: Name) throws(StreamJSONScanner.Failure) in
            switch key {
            case names.symbol: symbol = try scanner.string()
            case names.price: price = try scanner.numericExactDecimal()
            case names.timestamp: milliseconds = try scanner.numericInt64()
            default: try scanner.skipValue()
            }
        }
        guard let symbol, let price, let milliseconds else { return nil }
        return .trade(symbol: symbol, price: price, timestamp: EpochTimestamp.milliseconds.date(from: milliseconds))
    }
}
