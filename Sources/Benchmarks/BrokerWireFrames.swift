import Foundation

/// Frames and bodies as the brokers send them, byte for byte in the shapes of the wire reference
/// (/work/shared/reference/broker-apis.md): the same keys in the same order, no spaces, the same kinds
/// of numbers and strings. Only the symbols, prices, sizes and times vary from one event to the next,
/// so the decoders parse different digits every time, as they would on a live feed.
///
/// Every frame holds only what the watchlist subscribes to: trades and quotes (Polygon `T.`/`Q.`,
/// Alpaca `trades`/`quotes`, Tradier's `trade`/`quote`/`summary` filter, Finnhub trades).
struct BrokerWireFrames: Sendable {
    var frameCount = 64
    var eventsPerFrame = 10

    static let symbols = ["AAPL", "MSFT", "NVDA", "AMZN", "GOOGL", "META", "TSLA", "BRK.B", "JPM", "V", "SPY", "QQQ"]
    /// 2024-11-13T20:15:12.441Z, the reference's examples' moment.
    static let baseMilliseconds: Int64 = 1_731_528_912_441

    /// §2.3: `[{"ev":"T",…},{"ev":"Q",…},…]`, trades and NBBO quotes alternating.
    func polygon() -> [String] {
        frames { frame, event, symbol, cents, milliseconds in
            if event % 2 == 0 {
                return #"{"ev":"T","sym":"\#(symbol)","i":"\#(52_983 + frame * 16 + event)","x":4,"p":\#(price(cents)),"s":\#(100 + event),"c":[12,37],"t":\#(milliseconds),"q":\#(1_190_234 + frame * 16 + event),"z":3}"#
            }
            return #"{"ev":"Q","sym":"\#(symbol)","bx":19,"bp":\#(price(cents)),"bs":2,"ax":11,"ap":\#(price(cents + 3)),"as":1,"c":1,"i":[604],"t":\#(milliseconds),"q":\#(55_021_934 + frame * 16 + event),"z":3}"#
        }
    }

    /// §3.2: `[{"T":"t",…},{"T":"q",…},…]`, RFC 3339 times with nanoseconds.
    func alpaca() -> [String] {
        frames { frame, event, symbol, cents, milliseconds in
            let time = Self.rfc3339(milliseconds: milliseconds, nanosecondDigits: (frame * 1_000_003 + event * 7_919) % 1_000_000)
            if event % 2 == 0 {
                return #"{"T":"t","S":"\#(symbol)","i":\#(96_921 + frame * 16 + event),"x":"V","p":\#(price(cents)),"s":\#(100 + event),"c":["@"],"t":"\#(time)","z":"C"}"#
            }
            return #"{"T":"q","S":"\#(symbol)","bx":"V","bp":\#(price(cents)),"bs":3,"ax":"V","ap":\#(price(cents + 3)),"as":2,"c":["R"],"t":"\#(time)","z":"C"}"#
        }
    }

    /// §1.2: `GET /v1/markets/quotes` for `eventsPerFrame` symbols, `quotes.quote` an array of the full
    /// equity quote object.
    func tradierQuotesBodies() -> [String] {
        (0..<frameCount).map { frame in
            let quotes = (0..<eventsPerFrame).map { event in
                let (symbol, cents, milliseconds) = values(frame, event)
                let tradierSymbol = symbol.replacingOccurrences(of: ".", with: "/")
                return #"{"symbol":"\#(tradierSymbol)","description":"Benchmark Corp","exch":"Q","type":"stock","last":\#(price(cents)),"change":-1.34,"volume":\#(38_211_905 + frame * 100 + event),"open":\#(price(cents + 138)),"high":\#(price(cents + 189)),"low":\#(price(cents - 82)),"close":null,"bid":\#(price(cents - 2)),"ask":\#(price(cents + 1)),"change_percentage":-0.59,"average_volume":52340118,"last_volume":200,"trade_date":\#(milliseconds),"prevclose":\#(price(cents + 134)),"week_52_high":237.49,"week_52_low":164.08,"bidsize":3,"bidexch":"Q","bid_date":\#(milliseconds + 559),"asksize":2,"askexch":"P","ask_date":\#(milliseconds + 559),"root_symbols":"\#(tradierSymbol)"}"#
            }
            return #"{"quotes":{"quote":[\#(quotes.joined(separator: ","))]}}"#
        }
    }

    /// §4.2: `{"type":"trade","data":[{"p":…,"s":…,"t":…,"v":…,"c":[…]},…]}`, one frame of
    /// `eventsPerFrame` trades.
    func finnhubTrades() -> [String] {
        (0..<frameCount).map { frame in
            let trades = (0..<eventsPerFrame).map { event in
                let (symbol, cents, milliseconds) = values(frame, event)
                let conditions = event % 3 == 0 ? "null" : #"["1","12"]"#
                return #"{"p":\#(price(cents)),"s":"\#(symbol)","t":\#(milliseconds),"v":\#(35 + event),"c":\#(conditions)}"#
            }
            return #"{"type":"trade","data":[\#(trades.joined(separator: ","))]}"#
        }
    }

    /// §1.5: one event per WebSocket frame, no array, each ending in `\n` (`linebreak:true`); trades and
    /// quotes alternating, numbers as strings in trades and as numbers in quotes.
    func tradierStreamEvents() -> [String] {
        (0..<frameCount * eventsPerFrame).map { index in
            let (symbol, cents, milliseconds) = values(index / eventsPerFrame, index % eventsPerFrame)
            if index % 2 == 0 {
                return #"{"type":"trade","symbol":"\#(symbol)","exch":"Q","price":"\#(price(cents))","size":"200","cvol":"\#(38_211_905 + index)","date":"\#(milliseconds)","last":"\#(price(cents))"}"# + "\n"
            }
            return #"{"type":"quote","symbol":"\#(symbol)","bid":\#(price(cents)),"bidsz":3,"bidexch":"Q","biddate":"\#(milliseconds)","ask":\#(price(cents + 3)),"asksz":2,"askexch":"P","askdate":"\#(milliseconds)"}"# + "\n"
        }
    }

    // MARK: Values

    /// A JSON array of `eventsPerFrame` events per frame.
    private func frames(_ event: (_ frame: Int, _ event: Int, _ symbol: String, _ cents: Int, _ milliseconds: Int64) -> String) -> [String] {
        (0..<frameCount).map { frame in
            let events = (0..<eventsPerFrame).map { index in
                let (symbol, cents, milliseconds) = values(frame, index)
                return event(frame, index, symbol, cents, milliseconds)
            }
            return "[\(events.joined(separator: ","))]"
        }
    }

    private func values(_ frame: Int, _ event: Int) -> (symbol: String, cents: Int, milliseconds: Int64) {
        let symbol = Self.symbols[(frame + event) % Self.symbols.count]
        let cents = 10_000 + (frame * 3_137 + event * 719) % 40_000
        return (symbol, cents, Self.baseMilliseconds + Int64(frame * 97 + event * 3))
    }

    /// Prices as the brokers print them: shortest decimal, `227.5` rather than `227.50`.
    private func price(_ cents: Int) -> String {
        let whole = cents / 100
        let fraction = cents % 100
        if fraction == 0 { return "\(whole)" }
        if fraction % 10 == 0 { return "\(whole).\(fraction / 10)" }
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `2024-11-13T20:15:12.441123456Z`: the millisecond's time plus six more fraction digits.
    private static func rfc3339(milliseconds: Int64, nanosecondDigits: Int) -> String {
        let seconds = milliseconds / 1_000
        let date = Date(timeIntervalSince1970: TimeInterval(seconds))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 1970)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))."
            + String(format: "%03d%06d", Int(milliseconds % 1_000), nanosecondDigits) + "Z"
    }
}
