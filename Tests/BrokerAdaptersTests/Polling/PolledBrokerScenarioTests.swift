import Domain
import Foundation
import Locking
import Networking
import Testing
import TestSupport
@testable import BrokerAdapters

/// The polled brokers against the fixture server (Tests/Fixtures/http_fixture_server.py) when they
/// misbehave (issue 13): the real HTTP path, each broker's gate, the poller, and a manual clock for every
/// wait, so a minute of rate limiting takes no real minute. The loop is stepped only while it sleeps on
/// the clock, so what happened by then is settled; the time limit only guards against a broken loop.
@Suite(.timeLimit(.minutes(1))) struct PolledBrokerScenarioTests {
    /// The wall-clock time of the manual clock's zero.
    static let epoch = Date(timeIntervalSince1970: 1_750_000_000)

    /// Sends through a real servicer and notes when each request went out on the manual clock, so a test
    /// can count the requests of a minute.
    final class ClockedServicer: RequestServicer {
        let inner = SocketRequestServicer()
        let clock: ManualClock
        private let sent = Locked<[(at: Duration, path: String, query: String)]>([])

        init(clock: ManualClock) { self.clock = clock }

        var requests: [(at: Duration, path: String, query: String)] { sent.withLock { $0 } }

        func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
            let entry = (clock.now.offset, request.url.path, request.url.query ?? "")
            sent.withLock { $0.append(entry) }
            return try await inner.send(request, secretNames: secretNames)
        }
    }

    /// One broker on the fixture server, with its gate and a poller over it, all on one manual clock.
    struct Rig {
        let server: FixtureServer
        let clock: ManualClock
        let servicer: ClockedServicer
        let gate: BrokerRequestGate
        let broker: any QuoteService
        let settings: PollingSettings

        func stream() -> PollingQuoteStream {
            PollingQuoteStream(service: broker, settings: settings, rateLimiter: nil, clock: clock, wallClock: { PolledBrokerScenarioTests.epoch })
        }

        /// Lets the loop run `steps` times to the next deadline it sleeps until, then waits for it to sleep
        /// again: everything due by then has happened.
        func step(_ steps: Int) async throws {
            for _ in 0..<steps {
                try #require(await clock.sleepers(atLeast: 1))
                let next = try #require(clock.pendingDeadlines.first)
                clock.advance(by: clock.now.duration(to: next))
            }
            try #require(await clock.sleepers(atLeast: 1))
        }
    }

    /// `credential` is the scenario's token or key (see the broker's routes.json).
    func rig(_ broker: String, credential: String, settings: PollingSettings? = nil, limited: Bool = false) async throws -> Rig {
        let server = try await FixtureServer.start(root: FixtureServer.fixturesDirectory.appendingPathComponent(broker))
        let clock = ManualClock()
        let servicer = ClockedServicer(clock: clock)
        let context = ServiceContext(baseURLOverrides: [broker: server.baseURL], servicer: servicer)
        let perRequest = broker == "finnhub" || broker == "polygon" ? 1 : 100
        let settings = settings ?? PollingSettings(interval: .seconds(10), requestsPerMinute: 600, maxSymbolsPerRequest: perRequest, burst: 10)
        let gate = limited ? BrokerRequestGate(settings: settings, clock: clock) : BrokerRequestGate(clock: clock)
        let service: any QuoteService
        switch broker {
        case "tradier": service = TradierBroker(context: context, credentials: TradierCredentials(token: credential), gate: gate)
        case "alpaca": service = AlpacaBroker(context: context, credentials: AlpacaCredentials(keyID: credential, secretKey: "test-secret"), gate: gate)
        case "finnhub": service = FinnhubBroker(context: context, credentials: FinnhubCredentials(token: credential), gate: gate)
        default: service = PolygonBroker(context: context, credentials: PolygonCredentials(apiKey: credential), gate: gate)
        }
        return Rig(server: server, clock: clock, servicer: servicer, gate: gate, broker: service, settings: settings)
    }

    /// Every event of a closed session.
    func drain(_ session: any QuoteStreamSession) async throws -> [QuoteEvent] {
        await session.close()
        var events: [QuoteEvent] = []
        for try await event in session.events { events.append(event) }
        return events
    }

    func quotedSymbols(_ events: [QuoteEvent]) -> Set<String> {
        Set(events.compactMap { if case .quote(let quote) = $0 { quote.symbol } else { nil } })
    }

    func symbolFailures(_ events: [QuoteEvent]) -> [QuoteEvent] {
        events.filter { if case .symbolFailed = $0 { true } else { false } }
    }

    func retries(_ events: [QuoteEvent]) -> [BrokerError] {
        events.compactMap { if case .retrying(_, let error) = $0 { error } else { nil } }
    }

    // MARK: Defect 1: one limiter for every request of a broker

    /// Polygon allows 5 requests a minute. The start-up snapshot of three symbols and the poller of the same
    /// three share the broker's one gate: 5 requests in the first minute, the sixth at 60 s (before, the
    /// snapshot bypassed the poller's limiter and the first minute saw 8).
    @Test func polygonsFirstMinuteWithThreeSymbolsMakesAtMostFiveRequests() async throws {
        // The composition root's Polygon settings (BrokerAssembly.pollingSettings).
        let polygon = PollingSettings(interval: .seconds(5), requestsPerMinute: 5, maxSymbolsPerRequest: 1, burst: 5)
        let rig = try await rig("polygon", credential: "test-key", settings: polygon, limited: true)
        defer { Task { await rig.server.stop() } }
        let symbols = ["AAPL", "IBM", "MSFT"]

        // The start-up snapshot, as QuoteFanOut asks for it.
        let snapshot = try await rig.broker.quotes(for: symbols)
        #expect(snapshot.values.allSatisfy { (try? $0.get()) != nil })

        let session = try await rig.stream().openSession()
        await session.subscribe(Set(symbols))
        try await rig.step(0)
        // Nothing more may go out before the first minute is over.
        #expect(rig.clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(60))])
        try await rig.step(1)
        let times = rig.servicer.requests.map(\.at)
        #expect(times.filter { $0 < .seconds(60) }.count == 5)
        #expect(times == [.zero, .zero, .zero, .zero, .zero, .seconds(60)])
        let events = try await drain(session)
        #expect(quotedSymbols(events) == Set(symbols))
        #expect(symbolFailures(events).isEmpty)
    }

    // MARK: Defect 2: a per-symbol 429 pauses the whole broker

    /// A 429 with Retry-After: 36 on one symbol's snapshot pauses every caller of Polygon until 36 s: the
    /// snapshot caller, any other caller and the poller, which says when it will retry.
    @Test func aPerSymbolRetryAfterPausesEveryCallerOfTheBroker() async throws {
        let rig = try await rig("polygon", credential: "limited-key")
        defer { Task { await rig.server.stop() } }

        await #expect(throws: BrokerError.rateLimited(retryAfter: 36)) { try await rig.broker.quotes(for: ["AAPL"]) }
        #expect(rig.servicer.requests.count == 1)
        // Another caller of the same broker is refused without a request, and told how long is left.
        await #expect(throws: BrokerError.rateLimited(retryAfter: 36)) { try await rig.broker.quotes(for: ["MSFT"]) }
        #expect(rig.servicer.requests.count == 1)

        let session = try await rig.stream().openSession()
        await session.subscribe(["AAPL", "MSFT"])
        try await rig.step(0)
        #expect(rig.clock.pendingDeadlines == [ManualClock.Instant(offset: .seconds(36))])
        #expect(rig.servicer.requests.count == 1)
        rig.clock.advance(by: .seconds(35))
        await #expect(throws: BrokerError.rateLimited(retryAfter: 1)) { try await rig.broker.quotes(for: ["MSFT"]) }
        try await rig.step(1)
        #expect(rig.servicer.requests.map(\.at) == [.zero, .seconds(36), .seconds(36)])
        #expect(rig.servicer.requests.map(\.path).map { $0.split(separator: "/").last.map(String.init) } == ["AAPL", "AAPL", "MSFT"])

        let events = try await drain(session)
        #expect(events.first == .retrying(at: Self.epoch.addingTimeInterval(36), after: .rateLimited(retryAfter: 36)))
        #expect(events.dropFirst().first == .live)
        #expect(quotedSymbols(events) == ["AAPL", "MSFT"])
        #expect(symbolFailures(events).isEmpty)
    }

    // MARK: Defect 3: a 500 burst is the broker's failure, never a row's

    /// Finnhub answers every fourth request with 500: the poller backs off and says why, and no row ever
    /// gets a failure (before, the row showed "server error 500" until the next poll).
    @Test func aServerErrorEveryFourthRequestNeverFailsARow() async throws {
        let rig = try await rig("finnhub", credential: "flaky-token")
        defer { Task { await rig.server.stop() } }
        let session = try await rig.stream().openSession()
        await session.subscribe(["AAPL", "MSFT"])
        try await rig.step(8)
        #expect(rig.servicer.requests.count >= 10)
        let events = try await drain(session)
        #expect(symbolFailures(events).isEmpty)
        #expect(retries(events).count >= 2)
        #expect(retries(events).allSatisfy { $0 == .server(status: 500) })
        #expect(quotedSymbols(events) == ["AAPL", "MSFT"])
    }

    /// The snapshot fan-out asks for several symbols in one call: a 500 among them fails the call, so no
    /// row turns into "server error 500".
    @Test func aServerErrorInTheSnapshotFailsTheCallNotARow() async throws {
        let rig = try await rig("finnhub", credential: "flaky-token")
        defer { Task { await rig.server.stop() } }
        // Requests 1-3 answer, the fourth is a 500.
        _ = try await rig.broker.quotes(for: ["AAPL", "MSFT"])
        _ = try await rig.broker.quotes(for: ["AAPL"])
        await #expect(throws: BrokerError.server(status: 500)) { try await rig.broker.quotes(for: ["MSFT", "AAPL"]) }
    }

    // MARK: Defect 4: a malformed 200 is a failed request, retried; the symbols keep being polled

    static let malformed: [(broker: String, credential: String)] = [
        ("tradier", "shape-token"), ("tradier", "types-token"), ("tradier", "range-token"),
        ("alpaca", "shape-key"), ("alpaca", "types-key"), ("alpaca", "range-key"),
        ("finnhub", "shape-token"), ("finnhub", "types-token"), ("finnhub", "range-token"),
        ("polygon", "shape-key"), ("polygon", "types-key"), ("polygon", "range-key"),
    ]

    /// Each broker answers AAPL and MSFT once with a malformed 200 (an unexpected shape, wrong types, the
    /// out-of-range number 1e999), then correctly: the poller reports a failed request, retries after its
    /// backoff, asks for both symbols again and quotes them; no symbol is declared unknown.
    @Test(.serialized, arguments: malformed)
    func aMalformedBodyIsAFailedRequestRetriedWithBackoff(broker: String, credential: String) async throws {
        let rig = try await rig(broker, credential: credential)
        defer { Task { await rig.server.stop() } }
        let session = try await rig.stream().openSession()
        await session.subscribe(["AAPL", "MSFT"])
        // Batch brokers: the bad answer, the retry. Per-symbol brokers: each symbol's bad answer and retry.
        try await rig.step(broker == "tradier" || broker == "alpaca" ? 1 : 2)
        let events = try await drain(session)
        #expect(symbolFailures(events).isEmpty, "\(events)")
        let failures = retries(events)
        #expect(!failures.isEmpty)
        #expect(failures.allSatisfy { if case .badResponse = $0 { true } else { false } }, "\(failures)")
        #expect(quotedSymbols(events) == ["AAPL", "MSFT"], "\(events)")
        // The retry came after the backoff and asked for every symbol again.
        let requests = rig.servicer.requests
        #expect(requests.first?.at == .zero)
        #expect(requests.dropFirst().allSatisfy { $0.at >= rig.settings.backoffInitial })
        if broker == "tradier" || broker == "alpaca" {
            #expect(requests.count == 2)
            #expect(requests.allSatisfy { $0.query.contains("symbols=AAPL,MSFT") })
        } else {
            #expect(requests.count == 4)
        }
    }

    static let escapes: [(broker: String, credential: String)] = [
        ("tradier", "escapes-token"), ("alpaca", "escapes-key"), ("polygon", "escapes-key"),
    ]

    /// Escape sequences inside the strings of a valid body (terminal escapes, quotes, backslashes, emoji)
    /// are data: both symbols are quoted and stay polled.
    @Test(.serialized, arguments: escapes)
    func escapeSequencesInStringsAreData(broker: String, credential: String) async throws {
        let rig = try await rig(broker, credential: credential)
        defer { Task { await rig.server.stop() } }
        let session = try await rig.stream().openSession()
        await session.subscribe(["AAPL", "MSFT"])
        try await rig.step(1)
        let events = try await drain(session)
        #expect(symbolFailures(events).isEmpty, "\(events)")
        #expect(retries(events).isEmpty, "\(events)")
        #expect(quotedSymbols(events) == ["AAPL", "MSFT"])
        // The next cycle asked for both again.
        let perCycle = broker == "polygon" ? 2 : 1
        #expect(rig.servicer.requests.count == 2 * perCycle)
    }
}

extension PolledBrokerScenarioTests {
    /// Tradier once answers MSFT under a symbol wrapped in terminal escapes. That answer names neither
    /// MSFT nor it as unmatched, so it says nothing about MSFT: its row says so (escaped at display), and
    /// the next cycle asks for MSFT again (before, MSFT was taken for unknown and never asked for again).
    @Test func anEscapedSymbolInTheAnswerDoesNotDropTheSymbol() async throws {
        let rig = try await rig("tradier", credential: "escaped-symbol-token")
        defer { Task { await rig.server.stop() } }
        let session = try await rig.stream().openSession()
        await session.subscribe(["AAPL", "MSFT"])
        try await rig.step(1)
        #expect(rig.servicer.requests.map(\.query).allSatisfy { $0.contains("symbols=AAPL,MSFT") })
        #expect(rig.servicer.requests.count == 2)
        let events = try await drain(session)
        #expect(quotedSymbols(events) == ["AAPL", "MSFT"])
        for case .symbolFailed(let symbol, let error) in events {
            #expect(symbol == "MSFT" && !error.isPermanent, "\(error)")
        }
        #expect(retries(events).isEmpty)
    }
}
