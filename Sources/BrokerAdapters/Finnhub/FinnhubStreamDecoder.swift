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
public enum FinnhubStreamDecoder {
    public static func decode(_ text: String) throws -> [FinnhubStreamEvent] {
        var text = text
        return try text.withUTF8 { bytes throws(StreamJSONScanner.Failure) in try decode(utf8: bytes) }
    }

    static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(StreamJSONScanner.Failure) -> [FinnhubStreamEvent] {
        var scanner = StreamJSONScanner(bytes)
        let names = Self.names
        var type: Name?
        var trades: [FinnhubStreamEvent] = []
        var message: String?
        if scanner.peek() == UInt8(ascii: "{") {
            try scanner.object { (scanner: inout StreamJSONScanner, key: Name) throws(StreamJSONScanner.Failure) in
                switch key {
                case names.type: type = try scanner.name()
                case names.data: trades = try Self.trades(&scanner, names)
                case names.message: message = try scanner.string()
                default: try scanner.skipValue()
                }
            }
        } else {
            try scanner.skipWholeValue()
        }
        guard scanner.isAtEnd else { throw StreamJSONScanner.Failure(offset: scanner.index, reason: "text after the frame's value") }
        switch type {
        case names.tradeType: return trades
        case names.pingType: return [.ping]
        case names.errorType: return [.error(message: message ?? "")]
        default: return []
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

    /// The `data` array's usable trades; a `data` that is not an array is skipped.
    private static func trades(_ scanner: inout StreamJSONScanner, _ names: Names) throws(StreamJSONScanner.Failure) -> [FinnhubStreamEvent] {
        guard scanner.peek() == UInt8(ascii: "[") else {
            try scanner.skipValue()
            return []
        }
        var trades: [FinnhubStreamEvent] = []
        try scanner.array { (scanner: inout StreamJSONScanner) throws(StreamJSONScanner.Failure) in
            if let trade = try Self.trade(&scanner, names) { trades.append(trade) }
        }
        return trades
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
