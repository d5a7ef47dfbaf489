import BrokerAdapters
import Foundation
import Locking
import Networking

/// Events per second that the project's own decoders make of broker frames on one core: the stream
/// decoders the live sessions run (a byte-level scanner, `StreamJSONScanner`), and Tradier's polled
/// quotes body through the same decoding as `TradierBroker` (`TradierQuotesDecoder`). The inputs are
/// `BrokerWireFrames`, in the wire reference's exact shapes.
struct DecoderBenchmark: Sendable {
    var runs = 3
    var window: Duration = .milliseconds(500)
    var frames = BrokerWireFrames()
    var log: @Sendable (String) -> Void = { _ in }

    /// One decoder under test: what it reads, and a closure that decodes input `index` and returns how
    /// many events (trades, quotes) it got out of it. Every input must give `eventsPerInput` events, or
    /// the decoder is skipping what it should read and its rate means nothing.
    struct Workload: Sendable {
        var name: String
        var label: String
        var inputCount: Int
        var eventsPerInput: Int
        var decode: @Sendable (_ index: Int) throws -> Int

        init<Input: Sendable>(
            name: String, label: String, inputs: [Input], eventsPerInput: Int,
            decode: @escaping @Sendable (Input) throws -> Int
        ) {
            self.name = name
            self.label = label
            inputCount = inputs.count
            self.eventsPerInput = eventsPerInput
            self.decode = { try decode(inputs[$0]) }
        }
    }

    /// Every decoder measured, in report order. A new stream decoder is one entry here; its frames go in
    /// `BrokerWireFrames`. The report and the targets read the names from this list.
    func workloads() -> [Workload] {
        [
            Workload(
                name: "polygonStream", label: "PolygonStreamDecoder: T and Q events, arrays of \(frames.eventsPerFrame) (§2.3)",
                inputs: frames.polygon(), eventsPerInput: frames.eventsPerFrame
            ) { try PolygonStreamDecoder.decode($0).count },
            Workload(
                name: "alpacaStream", label: "AlpacaStreamDecoder: t and q messages, arrays of \(frames.eventsPerFrame), ns RFC 3339 times (§3.2)",
                inputs: frames.alpaca(), eventsPerInput: frames.eventsPerFrame
            ) { try AlpacaStreamDecoder.decode($0).count },
            Workload(
                name: "finnhubStream", label: "FinnhubStreamDecoder: trade frames of \(frames.eventsPerFrame) (§4.2)",
                inputs: frames.finnhubTrades(), eventsPerInput: frames.eventsPerFrame
            ) { try FinnhubStreamDecoder.decode($0).count },
            Workload(
                name: "tradierStream", label: "TradierStreamDecoder: one event per frame, trades and quotes (§1.5)",
                inputs: frames.tradierStreamEvents(), eventsPerInput: 1
            ) { try TradierStreamDecoder.decode($0).count },
            Workload(
                name: "tradierQuotesBody", label: "TradierQuotesDecoder (scanner, as TradierBroker): polled quotes body of \(frames.eventsPerFrame) (§1.2)",
                inputs: frames.tradierQuotesBodies().map { HTTPResponse(status: 200, body: Data($0.utf8)) },
                eventsPerInput: frames.eventsPerFrame
            ) { try TradierQuotesDecoder.decode($0).quoteList.count },
        ]
    }

    /// The names `workloads()` reports under, for the table and the targets.
    static var names: [String] {
        DecoderBenchmark(frames: BrokerWireFrames(frameCount: 0)).workloads().map(\.name)
    }

    func run() -> Figures {
        var figures = Figures()
        for workload in workloads() {
            figures.note("decode.\(workload.name)", workload.label)
            for run in 1...runs {
                log("decode \(workload.name), run \(run)")
                figures.add("decode.\(workload.name).eventsPerSecond", eventsPerSecond(workload))
            }
        }
        figures.add("decode.eventsPerFrame", Double(frames.eventsPerFrame))
        return figures
    }

    private func eventsPerSecond(_ workload: Workload) -> Double? {
        for index in 0..<workload.inputCount {
            let events = try? workload.decode(index)
            guard events == workload.eventsPerInput else {
                log("decode \(workload.name): input \(index) gave \(events.map(String.init) ?? "an error"), not \(workload.eventsPerInput) events")
                return nil
            }
        }
        let nanoseconds = UInt64(window.wholeNanoseconds)
        var events = 0
        var input = 0
        let start = MonotonicTime.now()
        var now = start
        do {
            while now - start < nanoseconds {
                for _ in 0..<16 {
                    events += try workload.decode(input)
                    input = input + 1 == workload.inputCount ? 0 : input + 1
                }
                now = MonotonicTime.now()
            }
        } catch {
            log("decode \(workload.name) failed: \(error)")
            return nil
        }
        return Double(events) / MonotonicTime.seconds(now - start)
    }
}
