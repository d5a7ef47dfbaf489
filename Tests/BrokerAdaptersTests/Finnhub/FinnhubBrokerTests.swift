import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct FinnhubBrokerTests {
    let fixtureBase = URL(string: "http://127.0.0.1:8931")!
    let stamp = Date(timeIntervalSince1970: 1_731_528_912)

    func broker(token: String? = "test-token", servicer: any RequestServicer) -> FinnhubBroker {
        FinnhubBroker(
            context: ServiceContext(baseURLOverrides: ["finnhub": fixtureBase], servicer: servicer),
            credentials: FinnhubCredentials(token: token)
        )
    }

    @Test func brandingIsStable() {
        #expect(FinnhubBroker.branding == ServiceBranding(id: "finnhub", name: "Finnhub", glyph: "F", color: .green))
        #expect(broker(servicer: NoNetwork()).branding.id == "finnhub")
    }

    @Test func quotesEachSymbolAsTheUserWroteIt() async throws {
        let servicer = try FixtureRoutesServicer(broker: "finnhub")
        let results = try await broker(servicer: servicer).quotes(for: ["aapl", "MSFT", "ZZZZ"])
        #expect(results.count == 3)
        #expect(try results["aapl"]?.get() == CommonQuote(symbol: "aapl", last: exactDecimal("227.52"), timestamp: stamp, previousClose: exactDecimal("228.86")))
        #expect(try results["MSFT"]?.get() == CommonQuote(symbol: "MSFT", last: exactDecimal("423.46"), timestamp: stamp, previousClose: exactDecimal("421.31")))
        #expect(results["ZZZZ"] == .failure(.unknownSymbol("ZZZZ")))
        #expect(servicer.requests.count == 3)
        for request in servicer.requests {
            #expect(!request.url.absoluteString.contains("test-token"))
            #expect(request.headerFields["X-Finnhub-Token"] == "test-token")
        }
    }

    @Test func oneSymbolInTwoSpellingsIsOneRequest() async throws {
        let servicer = try FixtureRoutesServicer(broker: "finnhub")
        let results = try await broker(servicer: servicer).quotes(for: ["AAPL", "aapl", "AAPL"])
        #expect(servicer.requests.count == 1)
        #expect(try results["AAPL"]?.get().symbol == "AAPL")
        #expect(try results["aapl"]?.get().symbol == "aapl")
        #expect(results.count == 2)
    }

    /// Only Finnhub's word about a symbol (a plan refusal, the all-zero unknown quote) stays on its row.
    @Test func verdictsStayOnTheirRows() async throws {
        let servicer = try FixtureRoutesServicer(broker: "finnhub")
        let results = try await broker(servicer: servicer).quotes(for: ["AAPL", "7203.T", "ZZZZ", "A B"])
        #expect(try results["AAPL"]?.get().last == exactDecimal("227.52"))
        #expect(results["7203.T"] == .failure(.unauthorized(hint: "your Finnhub plan does not include this data")))
        #expect(results["ZZZZ"] == .failure(.unknownSymbol("ZZZZ")))
        #expect(results["A B"] == .failure(.unknownSymbol("A B")))
        // The invalid symbol never reached the wire.
        #expect(servicer.requests.count == 3)
    }

    /// A request that failed (5xx, network, a body that is not a quote) is the broker's failure: the whole
    /// call throws it, and no row, not even the one asked for, gets a verdict.
    @Test(arguments: [
        ("SERVERERROR", BrokerError.server(status: 500)),
        ("GARBAGE", .badResponse("not a Finnhub quote: <html><body>502 Bad Gateway</body></html>")),
        ("DROP", .network("connection closed before a response (fixture route dropped)")),
        ("TRUNCATE", .badResponse(#"not a Finnhub quote: {"c":227.52,"d":-1.34,"dp":-0.5855,"h":229.41,"#)),
    ])
    func aFailedRequestFailsTheWholeCall(symbol: String, error: BrokerError) async throws {
        let servicer = try FixtureRoutesServicer(broker: "finnhub")
        await #expect(throws: error) { try await broker(servicer: servicer).quotes(for: [symbol]) }
    }

    @Test func aRateLimitThrowsWithItsRetryAfter() async throws {
        let servicer = try FixtureRoutesServicer(broker: "finnhub")
        await #expect(throws: BrokerError.rateLimited(retryAfter: 30)) { try await broker(servicer: servicer).quotes(for: ["RATELIMIT"]) }
    }

    @Test func aRejectedKeyThrowsOnceForTheFooter() async throws {
        let servicer = try FixtureRoutesServicer(broker: "finnhub")
        await #expect(throws: BrokerError.unauthorized(hint: "check FINNHUB_TOKEN")) {
            try await broker(token: "wrong-token", servicer: servicer).quotes(for: ["AAPL", "MSFT"])
        }
        #expect(BrokerError.unauthorized(hint: "check FINNHUB_TOKEN").description == "unauthorized, check FINNHUB_TOKEN")
    }

    @Test func aRejectedKeyStopsSendingAfterTheFirstRequestsInFlight() async throws {
        let servicer = try FixtureRoutesServicer(broker: "finnhub")
        let symbols = ["AAPL", "MSFT", "IBM", "ORCL", "INTC", "AMD", "NVDA", "TSLA", "META", "AMZN"]
        await #expect(throws: BrokerError.unauthorized(hint: "check FINNHUB_TOKEN")) {
            try await broker(token: "wrong-token", servicer: servicer).quotes(for: symbols)
        }
        #expect(servicer.requests.count == FinnhubBroker.maxRequestsInFlight)
    }

    @Test func aMissingKeyThrowsWithoutSendingAnything() async {
        await #expect(throws: BrokerError.unauthorized(hint: "set FINNHUB_TOKEN")) {
            try await broker(token: nil, servicer: NoNetwork()).quotes(for: ["AAPL"])
        }
    }

    @Test func theSandboxIsRefusedBecauseFinnhubHasNone() async {
        let sandbox = FinnhubBroker(
            context: ServiceContext(environment: .sandbox, servicer: NoNetwork()),
            credentials: FinnhubCredentials(token: "test-token")
        )
        await #expect(throws: BrokerError.network("bad base URL finnhub has no sandbox; use http(s)://host[:port][/path]")) {
            try await sandbox.quotes(for: ["AAPL"])
        }
    }

    @Test func noSymbolsIsNoRequest() async throws {
        #expect(try await broker(servicer: NoNetwork()).quotes(for: []).isEmpty)
    }

    @Test(.timeLimit(.minutes(1)))
    func atMostFourRequestsAreInFlight() async throws {
        let symbols = ["AAPL", "MSFT", "ZZZZ", "IBM", "ORCL", "INTC", "AMD", "NVDA", "TSLA", "META"]
        let gate = GatedServicer(inner: try FixtureRoutesServicer(broker: "finnhub"), batch: 4, expected: symbols.count)
        let results = try await broker(servicer: gate).quotes(for: symbols)
        #expect(gate.maxInFlight == 4)
        #expect(gate.arrived == symbols.count)
        #expect(results.count == symbols.count)
        #expect(try results["AAPL"]?.get().last == exactDecimal("227.52"))
        #expect(results["META"] == .failure(.unknownSymbol("META")))
    }

    @Test func validationQuotesAAPL() async throws {
        let servicer = try FixtureRoutesServicer(broker: "finnhub")
        #expect(try await broker(servicer: servicer).validateCredentials() == "Finnhub API key")
        #expect(servicer.requests.map(\.url.absoluteString) == ["http://127.0.0.1:8931/api/v1/quote?symbol=AAPL"])
        await #expect(throws: BrokerError.unauthorized(hint: "check FINNHUB_TOKEN")) {
            try await broker(token: "wrong-token", servicer: servicer).validateCredentials()
        }
    }

    @Test func noErrorEverShowsTheKey() async throws {
        let servicer = try FixtureRoutesServicer(broker: "finnhub")
        var descriptions: [String] = []
        let results = try await broker(token: "test-token", servicer: servicer).quotes(for: ["ZZZZ", "7203.T"])
        for case .failure(let error) in results.values { descriptions.append(error.description) }
        for (token, symbol) in [("test-token", "RATELIMIT"), ("test-token", "SERVERERROR"), ("test-token", "GARBAGE"), ("test-token", "DROP"),
                                ("test-token", "TRUNCATE"), ("wrong-token", "AAPL")] {
            do {
                _ = try await broker(token: token, servicer: servicer).quotes(for: [symbol])
            } catch {
                descriptions.append(error.description)
            }
        }
        #expect(descriptions.count == 8)
        for description in descriptions {
            #expect(!description.contains("test-token") && !description.contains("wrong-token"))
        }
    }
}
