import Domain
import Foundation

/// Decodes Polygon stocks WebSocket frames: always a JSON array of events, possibly of mixed types
/// (reference §2.2). A pure function on the hot path, fuzzed by tests and measured by the benchmark.
///
/// Events the watchlist cannot use are left out rather than failing the frame: unknown `ev` types,
/// aggregates, and trades or quotes missing their symbol, price or timestamp. Keys are case-sensitive
/// (`T` is not `t`, `P` is not `p`). Only bytes that are not a JSON array throw.
public enum PolygonStreamDecoder: StreamFrameDecoder {
    public static func decode(
        utf8 bytes: UnsafeBufferPointer<UInt8>, into events: inout [PolygonStreamEvent]
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
        let ev = Name("ev")
        let sym = Name("sym")
        let p = Name("p")
        let bp = Name("bp")
        let ap = Name("ap")
        let t = Name("t")
        let status = Name("status")
        let message = Name("message")
        let tradeType = Name("T")
        let quoteType = Name("Q")
        let statusType = Name("status")
    }

    private static let names = Names()

    private static func event(_ scanner: inout StreamJSONScanner, _ names: Names) throws(StreamJSONScanner.Failure) -> PolygonStreamEvent? {
        guard scanner.peek() == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return nil
        }
        var type: Name?
        var symbol: String?
        var price: ExactDecimal?
        var bid: ExactDecimal?
        var ask: ExactDecimal?
        var milliseconds: Int64?
        var status: String?
        var message: String?
        try scanner.object { (scanner: inout StreamJSONScanner, key: Name) throws(StreamJSONScanner.Failure) in
            switch key {
            case names.ev: type = try scanner.name()
            case names.sym: symbol = try scanner.string()
            case names.p: price = try scanner.exactDecimal()
            case names.bp: bid = try scanner.exactDecimal()
            case names.ap: ask = try scanner.exactDecimal()
            case names.t: milliseconds = try scanner.int64()
            case names.status: status = try scanner.string()
            case names.message: message = try scanner.string()
            default: try scanner.skipValue()
            }
        }
        switch type {
        case names.tradeType:
            guard let symbol, let price, let milliseconds else { return nil }
            return .trade(symbol: symbol, price: price, timestamp: EpochTimestamp.milliseconds.date(from: milliseconds))
        case names.quoteType:
            guard let symbol, let milliseconds else { return nil }
            return .quote(symbol: symbol, bidPrice: bid, askPrice: ask, timestamp: EpochTimestamp.milliseconds.date(from: milliseconds))
        case names.statusType:
            guard let status else { return nil }
            return .status(status: status, message: message ?? "")
        default:
            return nil
        }
    }
}
