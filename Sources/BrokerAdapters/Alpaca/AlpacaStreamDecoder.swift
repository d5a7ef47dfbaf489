import Domain
import Foundation

/// Decodes Alpaca market-data WebSocket frames: always a JSON array; control messages come alone, data
/// messages batched and possibly mixed (reference §3.2). A pure function on the hot path, fuzzed by tests
/// and measured by the benchmark.
///
/// Messages the watchlist cannot use are left out rather than failing the frame: unknown `T` types, bars,
/// and trades or quotes missing their symbol, price or a valid RFC 3339 timestamp. Keys are
/// case-sensitive (`T` is the type, `t` the timestamp). Only bytes that are not a JSON array throw.
public enum AlpacaStreamDecoder: StreamFrameDecoder {
    public static func decode(
        utf8 bytes: UnsafeBufferPointer<UInt8>, into events: inout [AlpacaStreamEvent]
    ) throws(StreamJSONScanner.Failure) {
        let names = Self.names
        try StreamJSONScanner.events(inArrayFrame: bytes, into: &events) { (scanner: inout StreamJSONScanner) throws(StreamJSONScanner.Failure) in
            try Self.event(&scanner, names)
        }
    }

    private typealias Name = StreamJSONScanner.Name

    /// Keys and type tags, loaded once per frame: a `static let` read per comparison costs a `swift_once`
    /// call each time, which was a fifth of the decoding time.
    private struct Names {
        let type = Name("T")
        let symbol = Name("S")
        let price = Name("p")
        let bid = Name("bp")
        let ask = Name("ap")
        let timestamp = Name("t")
        let message = Name("msg")
        let code = Name("code")
        let trades = Name("trades")
        let quotes = Name("quotes")
        let tradeType = Name("t")
        let quoteType = Name("q")
        let successType = Name("success")
        let errorType = Name("error")
        let subscriptionType = Name("subscription")
    }

    private static let names = Names()

    private static func event(_ scanner: inout StreamJSONScanner, _ names: Names) throws(StreamJSONScanner.Failure) -> AlpacaStreamEvent? {
        guard scanner.peek() == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return nil
        }
        var type: Name?
        var symbol: String?
        var price: ExactDecimal?
        var bid: ExactDecimal?
        var ask: ExactDecimal?
        var date: Date?
        var message: String?
        var code: Int64?
        var trades: [String]?
        var quotes: [String]?
        try scanner.object { (scanner: inout StreamJSONScanner, key: Name) throws(StreamJSONScanner.Failure) in
            switch key {
            case names.type: type = try scanner.name()
            case names.symbol: symbol = try scanner.string()
            case names.price: price = try scanner.exactDecimal()
            case names.bid: bid = try scanner.exactDecimal()
            case names.ask: ask = try scanner.exactDecimal()
            case names.timestamp: date = try scanner.rfc3339Date()
            case names.message: message = try scanner.string()
            case names.code: code = try scanner.int64()
            case names.trades: trades = try scanner.strings()
            case names.quotes: quotes = try scanner.strings()
            default: try scanner.skipValue()
            }
        }
        switch type {
        case names.tradeType:
            guard let symbol, let price, let date else { return nil }
            return .trade(symbol: symbol, price: price, timestamp: date)
        case names.quoteType:
            guard let symbol, let date else { return nil }
            return .quote(symbol: symbol, bidPrice: bid, askPrice: ask, timestamp: date)
        case names.successType:
            return .success(message: message ?? "")
        case names.errorType:
            // A code that does not fit an Int is no code Alpaca documents; 0 falls to "other errors".
            return .error(code: code.flatMap { Int(exactly: $0) } ?? 0, message: message ?? "")
        case names.subscriptionType:
            return .subscription(trades: trades ?? [], quotes: quotes ?? [])
        default:
            return nil
        }
    }
}
