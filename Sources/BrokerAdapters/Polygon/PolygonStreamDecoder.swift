import Foundation

/// Decodes Polygon stocks WebSocket frames: always a JSON array of events, possibly of mixed types
/// (reference §2.2). A pure function on the hot path, fuzzed by tests and measured by the benchmark.
///
/// Events the watchlist cannot use are left out rather than failing the frame: unknown `ev` types,
/// aggregates, and trades or quotes missing their symbol, price or timestamp. Keys are case-sensitive
/// (`T` is not `t`, `P` is not `p`). Only bytes that are not a JSON array throw.
public enum PolygonStreamDecoder {
    public static func decode(_ text: String) throws -> [PolygonStreamEvent] {
        var text = text
        return try text.withUTF8 { bytes throws(StreamJSONScanner.Failure) in try decode(utf8: bytes) }
    }

    static func decode(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(StreamJSONScanner.Failure) -> [PolygonStreamEvent] {
        var scanner = StreamJSONScanner(bytes)
        var events: [PolygonStreamEvent] = []
        try scanner.array { (scanner: inout StreamJSONScanner) throws(StreamJSONScanner.Failure) in
            if let event = try Self.event(&scanner) { events.append(event) }
        }
        guard scanner.isAtEnd else { throw StreamJSONScanner.Failure(offset: scanner.index, reason: "text after the frame's array") }
        return events
    }

    private typealias Name = StreamJSONScanner.Name

    private enum Key {
        static let ev = Name("ev")
        static let sym = Name("sym")
        static let p = Name("p")
        static let bp = Name("bp")
        static let ap = Name("ap")
        static let t = Name("t")
        static let status = Name("status")
        static let message = Name("message")
    }

    private enum EventType {
        static let trade = Name("T")
        static let quote = Name("Q")
        static let status = Name("status")
    }

    private static func event(_ scanner: inout StreamJSONScanner) throws(StreamJSONScanner.Failure) -> PolygonStreamEvent? {
        guard scanner.peek() == UInt8(ascii: "{") else {
            try scanner.skipValue()
            return nil
        }
        var type: Name?
        var symbol: String?
        var price: Double?
        var bid: Double?
        var ask: Double?
        var milliseconds: Int64?
        var status: String?
        var message: String?
        try scanner.object { (scanner: inout StreamJSONScanner, key: Name) throws(StreamJSONScanner.Failure) in
            switch key {
            case Key.ev: type = try scanner.name()
            case Key.sym: symbol = try scanner.string()
            case Key.p: price = try scanner.double()
            case Key.bp: bid = try scanner.double()
            case Key.ap: ask = try scanner.double()
            case Key.t: milliseconds = try scanner.int64()
            case Key.status: status = try scanner.string()
            case Key.message: message = try scanner.string()
            default: try scanner.skipValue()
            }
        }
        switch type {
        case EventType.trade:
            guard let symbol, let price, let milliseconds else { return nil }
            return .trade(symbol: symbol, price: price, timestamp: EpochTimestamp.milliseconds.date(from: milliseconds))
        case EventType.quote:
            guard let symbol, let milliseconds else { return nil }
            return .quote(symbol: symbol, bidPrice: bid, askPrice: ask, timestamp: EpochTimestamp.milliseconds.date(from: milliseconds))
        case EventType.status:
            guard let status else { return nil }
            return .status(status: status, message: message ?? "")
        default:
            return nil
        }
    }
}
