import Domain
import Foundation
import Networking
import TestSupport

/// Tests/Fixtures/streams/stream_fixture_server.py serving one broker's streaming protocol, and what its
/// deterministic feed sends, for tests that run a real stream service over the real WebSocket client.
enum LiveStreamFixture {
    static let directory = PythonPeer.repositoryRoot.appendingPathComponent("Tests/Fixtures/streams")
    static let script = directory.appendingPathComponent("stream_fixture_server.py")
    /// Fast ticks keep the tests short: a few quotes per symbol arrive within a tenth of a second.
    static let interval = "0.02"

    /// Starts the server; `port` 0 picks a free one, a fixed one restarts a stopped server where it was.
    static func start(_ broker: String, port: Int = 0, _ arguments: [String] = []) async throws -> PythonPeer {
        try await PythonPeer.start(
            script: script,
            arguments: ["--broker", broker, "--port", String(port), "--interval", interval] + TestTime.streamFixtureAuthTimeout + arguments)
    }

    /// The server's base URL, as a broker's REST base URL points at it.
    static func baseURL(_ peer: PythonPeer) -> URL {
        URL(string: "http://127.0.0.1:\(peer.port)")!
    }

    static func webSocketURL(_ peer: PythonPeer, _ pathAndQuery: String) -> URL {
        URL(string: "ws://127.0.0.1:\(peer.port)\(pathAndQuery)")!
    }

    /// The trade price of `symbol`'s tick `tick` (0 is the first after it is subscribed): the script's
    /// formula, (100 + sum of the symbol's bytes % 400) dollars plus one cent per tick.
    static func price(_ symbol: String, tick: Int) -> ExactDecimal {
        ExactDecimal(units: Int64((100 + symbol.utf8.reduce(0) { $0 + Int($1) } % 400) * 100 + tick % 500) * 1_000_000)
    }

    /// Prices of ticks 0..<count.
    static func prices(_ symbol: String, count: Int) -> [ExactDecimal] {
        (0..<count).map { price(symbol, tick: $0) }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads quotes until every symbol in `symbols` has `count` distinct consecutive prices, and returns
    /// them per symbol (a trade and the bid/ask of the same tick carry the same `last`, so each tick's price
    /// appears once). Other quotes and events land in `others`. A session that ends fails the read.
    static func prices(
        from events: StreamSessionTestEvents, each symbols: Set<String>, count: Int, others: inout [StreamSessionTestOutcome],
        timeout: Duration = .seconds(5)
    ) async throws -> [String: [ExactDecimal]] {
        var seen: [String: [ExactDecimal]] = [:]
        while symbols.contains(where: { (seen[$0]?.count ?? 0) < count }) {
            guard let outcome = try await events.next(timeout: timeout) else { throw Failure(description: "events ended") }
            switch outcome {
            case .event(.quote(let quote)) where symbols.contains(quote.symbol):
                if seen[quote.symbol]?.last != quote.last { seen[quote.symbol, default: []].append(quote.last) }
            case .failed, .finished:
                throw Failure(description: "the session ended: \(outcome)")
            default:
                others.append(outcome)
            }
        }
        return seen.mapValues { Array($0.prefix(count)) }
    }

    /// Reads quotes until `symbol` has moved two ticks with no other quote between: after an unsubscribe,
    /// quotes of the dropped symbols still queued in the session's stream come first, and every tick of
    /// the server carries all its symbols, so from then on only `symbol` is left.
    static func skipUntilAlone(_ symbol: String, in events: StreamSessionTestEvents) async throws {
        var ticks = 0
        var price: ExactDecimal?
        while ticks < 2 {
            guard case .event(.quote(let quote)) = try await events.next() else { throw Failure(description: "a quote expected") }
            if quote.symbol != symbol {
                (ticks, price) = (0, nil)
            } else if quote.last != price {
                (ticks, price) = (ticks + 1, quote.last)
            }
        }
    }

    /// The next outcome that is not a quote (quotes in flight when the server goes away are skipped).
    static func nextNonQuote(from events: StreamSessionTestEvents, timeout: Duration = .seconds(3)) async throws -> StreamSessionTestOutcome? {
        while let outcome = try await events.next(timeout: timeout) {
            if case .event(.quote) = outcome { continue }
            return outcome
        }
        return nil
    }

    /// Runs the script's own checks (stream_fixture_selftest.py: every broker's protocol against a
    /// `websockets` client); its output, and whether it passed.
    static func runSelfTest() async throws -> (passed: Bool, output: String) {
        let selfTest = directory.appendingPathComponent("stream_fixture_selftest.py").path
        let interpreter = PythonPeer.interpreter
        // Subprocess takes a path; a bare `python3` is looked up by env.
        let script = [selfTest, "--time-scale", String(TestTime.scale)]
        let (program, arguments) = interpreter.hasPrefix("/") ? (interpreter, script) : ("/usr/bin/env", [interpreter] + script)
        let result = try await Subprocess.run(program, arguments)
        return (result.status == 0, result.output)
    }
}
