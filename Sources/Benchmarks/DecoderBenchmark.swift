import Domain
import Foundation

/// Events per second decoded from stream frames and quote bodies into `CommonQuote`s on one core,
/// with Foundation's JSONDecoder. Until the real adapters exist: the demo wire format and
/// hand-written Polygon-, Alpaca- and Tradier-style payloads (see `StreamWireFormats`).
struct DecoderBenchmark: Sendable {
    var runs = 3
    var window: Duration = .milliseconds(500)
    var eventsPerFrame = 10
    var log: @Sendable (String) -> Void = { _ in }

    static let symbols = ["AAPL", "MSFT", "NVDA", "AMZN", "GOOGL", "META", "TSLA", "BRK.B", "JPM", "V", "SPY", "QQQ"]

    struct Format: Sendable {
        var name: String
        var label: String
        var frames: [Data]
        /// Decodes one frame and returns how many quotes it produced.
        var decode: @Sendable (JSONDecoder, Data) throws -> Int
    }

    func run() -> Figures {
        var figures = Figures()
        for format in formats() {
            figures.note("decode.\(format.name)", format.label)
            for run in 1...runs {
                log("decode \(format.name), run \(run)")
                figures.add("decode.\(format.name).eventsPerSecond", eventsPerSecond(format))
            }
        }
        figures.add("decode.eventsPerFrame", Double(eventsPerFrame))
        return figures
    }

    private func eventsPerSecond(_ format: Format) -> Double? {
        let decoder = JSONDecoder()
        let nanoseconds = UInt64(window.components.seconds) * 1_000_000_000
            + UInt64(window.components.attoseconds / 1_000_000_000)
        var events = 0
        var frame = 0
        let start = MonotonicTime.now()
        var now = start
        do {
            while now - start < nanoseconds {
                for _ in 0..<16 {
                    events += try format.decode(decoder, format.frames[frame])
                    frame = frame + 1 == format.frames.count ? 0 : frame + 1
                }
                now = MonotonicTime.now()
            }
        } catch {
            log("decode \(format.name) failed: \(error)")
            return nil
        }
        return Double(events) / MonotonicTime.seconds(now - start)
    }

    // MARK: Payloads

    private func formats() -> [Format] {
        let frameCount = 64
        func price(_ frame: Int, _ event: Int) -> Double { 100 + Double((frame * 31 + event * 7) % 5_000) / 100 }
        func symbol(_ frame: Int, _ event: Int) -> String { Self.symbols[(frame + event) % Self.symbols.count] }
        let baseMilliseconds: Int64 = 1_731_528_912_441

        let encoder = JSONEncoder()
        let demo = (0..<frameCount).map { frame in
            let quotes = (0..<eventsPerFrame).map { event in
                CommonQuote(
                    symbol: symbol(frame, event), last: price(frame, event),
                    timestamp: Date(timeIntervalSince1970: Double(baseMilliseconds + Int64(frame * 100 + event)) / 1_000),
                    bid: price(frame, event) - 0.01, ask: price(frame, event) + 0.01, previousClose: 100,
                    volume: Int64(1_000_000 + frame * 100 + event))
            }
            return try! encoder.encode(quotes)
        }
        let polygon = (0..<frameCount).map { frame in
            let events = (0..<eventsPerFrame).map { event in
                #"{"ev":"T","sym":"\#(symbol(frame, event))","p":\#(price(frame, event)),"s":\#(100 + event),"t":\#(baseMilliseconds + Int64(frame * 100 + event))}"#
            }
            return Data("[\(events.joined(separator: ","))]".utf8)
        }
        let alpaca = (0..<frameCount).map { frame in
            let events = (0..<eventsPerFrame).map { event in
                let nanos = String(format: "%09d", (frame * 1_000_003 + event * 7_919) % 1_000_000_000)
                return #"{"T":"q","S":"\#(symbol(frame, event))","bp":\#(price(frame, event)),"bs":3,"ap":\#(price(frame, event) + 0.03),"as":2,"t":"2024-11-13T20:15:\#(String(format: "%02d", frame % 60)).\#(nanos)Z"}"#
            }
            return Data("[\(events.joined(separator: ","))]".utf8)
        }
        let tradier = (0..<frameCount).map { frame in
            let quotes = (0..<eventsPerFrame).map { event in
                let last = price(frame, event)
                return #"{"symbol":"\#(symbol(frame, event))","description":"Benchmark Corp","exch":"Q","type":"stock","last":\#(last),"change":1.25,"volume":\#(1_000_000 + frame),"open":\#(last - 1),"high":\#(last + 1),"low":\#(last - 2),"close":null,"bid":\#(last - 0.01),"ask":\#(last + 0.01),"change_percentage":0.55,"average_volume":48000000,"last_volume":100,"trade_date":\#(baseMilliseconds + Int64(frame)),"prevclose":\#(last - 1.25),"week_52_high":260.1,"week_52_low":164.08,"bidsize":3,"bidexch":"Q","bid_date":\#(baseMilliseconds),"asksize":2,"askexch":"Q","ask_date":\#(baseMilliseconds),"root_symbols":"\#(symbol(frame, event))"}"#
            }
            return Data(#"{"quotes":{"quote":[\#(quotes.joined(separator: ","))]}}"#.utf8)
        }

        return [
            Format(name: "demoWire", label: "demo wire format: JSON array of CommonQuote (JSONEncoder)", frames: demo) {
                try $0.decode([CommonQuote].self, from: $1).count
            },
            Format(name: "polygonStyle", label: "Polygon-style trade frames (hand-written, benchmark Codable structs)", frames: polygon) {
                try $0.decode([PolygonStyleTrade].self, from: $1).map(\.commonQuote).count
            },
            Format(name: "alpacaStyle", label: "Alpaca-style quote frames, RFC 3339 ns timestamps (hand-written, benchmark Codable structs)", frames: alpaca) {
                try $0.decode([AlpacaStyleQuote].self, from: $1).compactMap(\.commonQuote).count
            },
            Format(name: "tradierStyle", label: "Tradier-style quotes bodies (hand-written, benchmark Codable structs)", frames: tradier) {
                try $0.decode(TradierStyleQuotesBody.self, from: $1).quotes.quote.compactMap(\.commonQuote).count
            },
        ]
    }
}
