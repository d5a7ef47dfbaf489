import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct PolygonBrokerTests {
    let fixtureBase = URL(string: "http://127.0.0.1:8932")!

    func broker(key: String? = "test-key", servicer: any RequestServicer) -> PolygonBroker {
        PolygonBroker(
            context: ServiceContext(baseURLOverrides: ["polygon": fixtureBase], servicer: servicer),
            credentials: PolygonCredentials(apiKey: key)
        )
    }

    @Test func brandingIsStable() {
        #expect(PolygonBroker.branding == ServiceBranding(id: "polygon", name: "Polygon", glyph: "P", color: .magenta))
        #expect(broker(servicer: NoNetwork()).branding.id == "polygon")
    }

    @Test func quotesEachTickerAsTheUserWroteIt() async throws {
        let servicer = try FixtureRoutesServicer(broker: "polygon")
        let results = try await broker(servicer: servicer).quotes(for: ["aapl", "MSFT", "ZZZZ"])
        #expect(results.count == 3)
        let apple = try #require(try results["aapl"]?.get())
        #expect(apple.symbol == "aapl" && apple.last == exactDecimal("227.52") && apple.bid == exactDecimal("227.5") && apple.ask == exactDecimal("227.53"))
        #expect(apple.previousClose == exactDecimal("228.86") && apple.volume == 38_211_905)
        #expect(try results["MSFT"]?.get().last == exactDecimal("423.46"))
        #expect(results["ZZZZ"] == .failure(.unknownSymbol("ZZZZ")))
        for request in servicer.requests {
            #expect(!request.url.absoluteString.contains("test-key"))
            #expect(request.headerFields["Authorization"] == "Bearer test-key")
        }
        #expect(Set(servicer.requests.map(\.url.path)) == [
            "/v2/snapshot/locale/us/markets/stocks/tickers/AAPL",
            "/v2/snapshot/locale/us/markets/stocks/tickers/MSFT",
            "/v2/snapshot/locale/us/markets/stocks/tickers/ZZZZ",
        ])
    }

    /// Only Polygon's word about a ticker (not found, not entitled) stays on its row.
    @Test func verdictsStayOnTheirRows() async throws {
        let servicer = try FixtureRoutesServicer(broker: "polygon")
        let results = try await broker(servicer: servicer).quotes(for: ["AAPL", "NVDA", "ZZZZ", "NOROUTE", "I:SPX"])
        #expect(try results["AAPL"]?.get().last == exactDecimal("227.52"))
        #expect(results["NVDA"] == .failure(.unauthorized(hint: "your Polygon plan does not include this data")))
        #expect(results["ZZZZ"] == .failure(.unknownSymbol("ZZZZ")))
        #expect(results["NOROUTE"] == .failure(.unknownSymbol("NOROUTE")))
        #expect(results["I:SPX"] == .failure(.unknownSymbol("I:SPX")))
        #expect(servicer.requests.count == 4)
    }

    /// A request that failed (5xx, network, a body that is not a snapshot) is the broker's failure: the
    /// whole call throws it, and no row gets a verdict.
    @Test(arguments: [
        ("SERVERERROR", BrokerError.server(status: 500)),
        ("GARBAGE", .badResponse("not a Polygon snapshot: <html><body>502 Bad Gateway</body></html>")),
        ("DROP", .network("connection closed before a response (fixture route dropped)")),
    ])
    func aFailedRequestFailsTheWholeCall(symbol: String, error: BrokerError) async throws {
        let servicer = try FixtureRoutesServicer(broker: "polygon")
        await #expect(throws: error) { try await broker(servicer: servicer).quotes(for: ["AAPL", symbol]) }
    }

    @Test func aTruncatedBodyFailsTheWholeCall() async throws {
        let servicer = try FixtureRoutesServicer(broker: "polygon")
        do {
            _ = try await broker(servicer: servicer).quotes(for: ["TRUNCATE"])
            Issue.record("a truncated body gave an answer")
        } catch {
            guard case .badResponse(let detail) = error else {
                Issue.record("truncated body: \(error)")
                return
            }
            #expect(detail.hasPrefix(#"not a Polygon snapshot: {"request_id":"6a7e466379af0a71039d60cc78e72282""#) && detail.count < 110)
        }
    }

    /// Polygon documents no Retry-After: the gate pauses for its backoff and says how long.
    @Test func aRateLimitThrowsWithThePause() async throws {
        await #expect(throws: BrokerError.rateLimited(retryAfter: 1)) {
            try await broker(servicer: try FixtureRoutesServicer(broker: "polygon")).quotes(for: ["RATELIMIT"])
        }
    }

    @Test func aRejectedKeyThrowsOnceForTheFooter() async throws {
        let servicer = try FixtureRoutesServicer(broker: "polygon")
        await #expect(throws: BrokerError.unauthorized(hint: "check POLYGON_API_KEY")) {
            try await broker(key: "wrong-key", servicer: servicer).quotes(for: ["AAPL", "MSFT"])
        }
    }

    @Test func aMissingKeyThrowsWithoutSendingAnything() async {
        await #expect(throws: BrokerError.unauthorized(hint: "set POLYGON_API_KEY")) {
            try await broker(key: nil, servicer: NoNetwork()).quotes(for: ["AAPL"])
        }
    }

    @Test func theSandboxIsRefusedBecausePolygonHasNone() async {
        let sandbox = PolygonBroker(context: ServiceContext(environment: .sandbox, servicer: NoNetwork()), credentials: PolygonCredentials(apiKey: "test-key"))
        await #expect(throws: BrokerError.network("bad base URL polygon has no sandbox; use http(s)://host[:port][/path]")) {
            try await sandbox.quotes(for: ["AAPL"])
        }
    }

    @Test func theProductionHostIsPolygons() throws {
        let production = PolygonBroker(context: ServiceContext(servicer: NoNetwork()), credentials: PolygonCredentials(apiKey: "test-key"))
        #expect(try production.factory.snapshot("AAPL").get().httpRequest.url.host == "api.polygon.io")
    }

    @Test(.timeLimit(.minutes(1)))
    func atMostFourRequestsAreInFlight() async throws {
        let symbols = ["AAPL", "MSFT", "ZZZZ", "NVDA", "IBM", "ORCL", "INTC", "AMD", "TSLA"]
        let gate = GatedServicer(inner: try FixtureRoutesServicer(broker: "polygon"), batch: 4, expected: symbols.count)
        let results = try await broker(servicer: gate).quotes(for: symbols)
        #expect(gate.maxInFlight == 4)
        #expect(gate.arrived == symbols.count)
        #expect(results.count == symbols.count)
    }

    @Test func validationSnapshotsAAPL() async throws {
        let servicer = try FixtureRoutesServicer(broker: "polygon")
        #expect(try await broker(servicer: servicer).validateCredentials() == "Polygon API key")
        #expect(servicer.requests.map(\.url.absoluteString) == ["http://127.0.0.1:8932/v2/snapshot/locale/us/markets/stocks/tickers/AAPL"])
        await #expect(throws: BrokerError.unauthorized(hint: "check POLYGON_API_KEY")) {
            try await broker(key: "wrong-key", servicer: servicer).validateCredentials()
        }
    }

    @Test func noErrorEverShowsTheKey() async throws {
        let servicer = try FixtureRoutesServicer(broker: "polygon")
        var descriptions: [String] = []
        let results = try await broker(servicer: servicer).quotes(for: ["ZZZZ", "NVDA"])
        for case .failure(let error) in results.values { descriptions.append(error.description) }
        for (key, symbol) in [("test-key", "RATELIMIT"), ("test-key", "SERVERERROR"), ("test-key", "GARBAGE"), ("test-key", "DROP"),
                              ("test-key", "TRUNCATE"), ("wrong-key", "AAPL")] {
            do {
                _ = try await broker(key: key, servicer: servicer).quotes(for: [symbol])
            } catch {
                descriptions.append(error.description)
            }
        }
        #expect(descriptions.count == 8)
        for description in descriptions {
            #expect(!description.contains("test-key") && !description.contains("wrong-key"))
        }
    }
}
