import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

/// `TradierBroker.quotes(for:)` against routes.json through the stub servicer: no network.
@Suite struct TradierBrokerQuoteTests {
    static let now = Date(timeIntervalSince1970: 1_731_528_900)
    /// trade_date 1731528912441 ms; `EpochTimestamp` has its own tests.
    static let tradeDate = EpochTimestamp.milliseconds.date(from: 1_731_528_912_441)

    func broker(_ servicer: FixtureRoutesServicer, token: String? = "test-token", environment: ServiceEnvironment = .production) -> TradierBroker {
        TradierBroker(
            context: ServiceContext(environment: environment, servicer: servicer),
            credentials: TradierCredentials(token: token), now: { Self.now })
    }

    func quotes(_ symbols: [String], token: String? = "test-token") async throws -> (results: [String: Result<CommonQuote, BrokerError>], sent: [FixtureRoutesServicer.Sent]) {
        let servicer = try FixtureRoutesServicer(broker: "tradier")
        let results = try await broker(servicer, token: token).quotes(for: symbols)
        return (results, servicer.sent)
    }

    /// The whole-request error for `symbols`, or nil if it succeeded.
    func failure(_ symbols: [String], token: String? = "test-token") async throws -> BrokerError? {
        do {
            _ = try await quotes(symbols, token: token)
            return nil
        } catch let error as BrokerError {
            return error
        }
    }

    @Test func brandingIsStable() {
        #expect(TradierBroker.branding == ServiceBranding(id: "tradier", name: "Tradier", glyph: "T", color: .blue))
    }

    @Test func oneSymbol() async throws {
        let (results, sent) = try await quotes(["AAPL"])
        #expect(results.count == 1)
        #expect(try results["AAPL"]?.get() == CommonQuote(
            symbol: "AAPL", last: exactDecimal("227.52"), timestamp: Self.tradeDate, bid: exactDecimal("227.5"), ask: exactDecimal("227.53"), previousClose: exactDecimal("228.86"), volume: 38_211_905))
        #expect(sent.map(\.url) == ["https://api.tradier.com/v1/markets/quotes?symbols=AAPL&greeks=false"])
        #expect(sent.first?.secretNames == ["Authorization"])
    }

    @Test func severalSymbols() async throws {
        let (results, sent) = try await quotes(["AAPL", "MSFT"])
        #expect(try results["AAPL"]?.get().last == exactDecimal("227.52"))
        let msft = try #require(try results["MSFT"]?.get())
        #expect(msft == CommonQuote(
            symbol: "MSFT", last: exactDecimal("423.1"), timestamp: EpochTimestamp.milliseconds.date(from: 1_731_528_911_873),
            bid: exactDecimal("423.08"), ask: exactDecimal("423.12"), previousClose: exactDecimal("421.23"), volume: 17_892_345))
        #expect(sent.count == 1)
    }

    @Test func unmatchedSymbolsAreUnknownPerRow() async throws {
        let (results, _) = try await quotes(["AAPL", "ZZZQ"])
        #expect(try results["AAPL"]?.get().last == exactDecimal("227.52"))
        #expect(results["ZZZQ"] == .failure(.unknownSymbol("ZZZQ")))
    }

    @Test func everySymbolUnknownIsNotAFailedRequest() async throws {
        let (results, _) = try await quotes(["ZZZQ", "XXYYZ"])
        #expect(results == ["ZZZQ": .failure(.unknownSymbol("ZZZQ")), "XXYYZ": .failure(.unknownSymbol("XXYYZ"))])
    }

    static func isPermanentFailure(_ result: Result<CommonQuote, BrokerError>) -> Bool {
        if case .failure(let error) = result { error.isPermanent } else { false }
    }

    /// Only `unmatched_symbols` says a symbol is unknown: one the answer neither quotes nor lists gets a
    /// row error that is not permanent, so it is asked for again.
    @Test func aSymbolMissingFromTheAnswerIsNotDeclaredUnknown() async throws {
        let servicer = FixtureRoutesServicer { _ throws(BrokerError) in
            HTTPResponse(status: 200, body: try! TradierFixtures.data("quotes-one.json"))
        }
        let results = try await broker(servicer).quotes(for: ["AAPL", "MSFT"])
        #expect(try results["AAPL"]?.get().symbol == "AAPL")
        #expect(results["MSFT"] == .failure(.badResponse("tradier: the answer has no quote and no unmatched entry for MSFT")))
        #expect(results["MSFT"].map(Self.isPermanentFailure) == false)
    }

    @Test func nullsBeforeTheOpenAndAnUntradedSymbol() async throws {
        let (results, _) = try await quotes(["AAPL", "ZVZZT"])
        let aapl = try #require(try results["AAPL"]?.get())
        #expect(aapl == CommonQuote(symbol: "AAPL", last: exactDecimal("227.52"), timestamp: Self.tradeDate, bid: exactDecimal("227.4"), ask: exactDecimal("227.61"), previousClose: exactDecimal("227.52"), volume: 0))
        #expect(results["ZVZZT"] == .failure(.badResponse("tradier: no last price or previous close for ZVZZT")))
    }

    @Test func noTradeDateMeansNow() async throws {
        let servicer = FixtureRoutesServicer { _ throws(BrokerError) in
            HTTPResponse(status: 200, body: Data(#"{"quotes":{"quote":{"symbol":"NEWCO","last":null,"trade_date":0,"prevclose":10.5}}}"#.utf8))
        }
        let quote = try #require(try await broker(servicer).quotes(for: ["NEWCO"])["NEWCO"]?.get())
        #expect(quote == CommonQuote(symbol: "NEWCO", last: exactDecimal("10.5"), timestamp: Self.now, previousClose: exactDecimal("10.5")))
    }

    /// Users write `BRK.B`; Tradier wants and answers `BRK/B`; the row keeps the user's spelling.
    @Test func shareClassesMapBothWays() async throws {
        let (results, sent) = try await quotes(["BRK.B", "brk.b"])
        #expect(sent.map(\.symbols) == [["BRK/B"]])
        #expect(try results["BRK.B"]?.get().symbol == "BRK.B")
        #expect(try results["BRK.B"]?.get().last == exactDecimal("470.87"))
        #expect(try results["brk.b"]?.get().symbol == "brk.b")
    }

    @Test func duplicatesAreAskedForOnce() async throws {
        let (results, sent) = try await quotes(["AAPL", "AAPL", "aapl"])
        #expect(sent.map(\.symbols) == [["AAPL"]])
        #expect(Set(results.keys) == ["AAPL", "aapl"])
    }

    @Test func invalidSymbolsFailTheirRowOnly() async throws {
        let (results, sent) = try await quotes(["AAPL", "AA PL"])
        #expect(sent.map(\.symbols) == [["AAPL"]])
        #expect(try results["AAPL"]?.get().last == exactDecimal("227.52"))
        #expect(results["AA PL"] == .failure(.unknownSymbol("AA PL")))
    }

    @Test func noSymbolsNoRequest() async throws {
        let (results, sent) = try await quotes([])
        #expect(results.isEmpty)
        #expect(sent.isEmpty)
    }

    @Test func sandboxAndOverrides() async throws {
        let servicer = try FixtureRoutesServicer(broker: "tradier")
        _ = try await broker(servicer, environment: .sandbox).quotes(for: ["AAPL"])
        let local = TradierBroker(
            context: ServiceContext(baseURLOverrides: ["tradier": URL(string: "http://127.0.0.1:8123")!], servicer: servicer),
            credentials: TradierCredentials(token: "test-token"))
        _ = try await local.quotes(for: ["AAPL"])
        #expect(servicer.sent.map { $0.request.url.host } == ["sandbox.tradier.com", "127.0.0.1"])
    }

    @Test func rejectedTokenSaysWhichVariableToCheck() async throws {
        let error = try await failure(["AAPL"], token: "wrong-token")
        #expect(error == .unauthorized(hint: "check TRADIER_TOKEN"))
        #expect(error?.description == "unauthorized, check TRADIER_TOKEN")
    }

    @Test func missingTokenSendsNothing() async throws {
        let servicer = try FixtureRoutesServicer(broker: "tradier")
        await #expect(throws: BrokerError.unauthorized(hint: "set TRADIER_TOKEN")) {
            try await broker(servicer, token: nil).quotes(for: ["AAPL"])
        }
        #expect(servicer.sent.isEmpty)
    }

    @Test func rateLimitPrefersRetryAfter() async throws {
        #expect(try await failure(["LIMIT"]) == .rateLimited(retryAfter: 30))
    }

    /// Without `Retry-After`, `X-Ratelimit-Expiry` (epoch ms) is measured from the injected now.
    @Test func rateLimitFromTheExpiryHeader() async throws {
        let servicer = FixtureRoutesServicer { _ throws(BrokerError) in
            HTTPResponse(status: 429, headers: ["X-Ratelimit-Expiry": "1731528960000"], body: Data("Quota Violation 1731528960000".utf8))
        }
        await #expect(throws: BrokerError.rateLimited(retryAfter: 60)) {
            try await broker(servicer).quotes(for: ["AAPL"])
        }
    }

    @Test func serverFaultsAndGarbage() async throws {
        #expect(try await failure(["BOOM"]) == .server(status: 500))
        #expect(try await failure(["HTML"]) == .badResponse(
            "tradier: unexpected response: not JSON; body starts '<html><head><title>502 Bad Gateway</title></head><body><h1>B…'"))
        #expect(try await failure(["DROP"]) == .network("connection closed before a response (fixture route dropped)"))
        let truncated = try await failure(["CUT"])
        #expect(truncated?.description.hasPrefix("bad response: tradier: unexpected response: not JSON; body starts '{\"quotes\":{\"quote\":[{") == true)
    }

    @Test func tradierErrorBodiesKeepTheirMessage() async throws {
        #expect(try await failure(["BADREQ"]) == .badResponse("tradier: HTTP 400: Invalid Parameter: symbols"))
        #expect(try await failure(["ERRS"]) == .badResponse("tradier: Invalid Parameter: symbols"))
        #expect(try await failure(["FAULT"]) == .badResponse("tradier: Body buffer overflow (protocol.http.TooBigBody)"))
    }

    @Test func noErrorEverShowsTheToken() async throws {
        var descriptions: [String] = []
        for symbols in [["LIMIT"], ["BOOM"], ["HTML"], ["DROP"], ["CUT"], ["BADREQ"], ["ERRS"], ["FAULT"], ["NOROUTE"]] {
            if let error = try await failure(symbols) { descriptions += [error.description, error.shortReason, "\(error)"] }
        }
        if let error = try await failure(["AAPL"], token: "wrong-secret-token") { descriptions.append(error.description) }
        #expect(descriptions.count == 28)
        for text in descriptions {
            #expect(!text.contains("test-token") && !text.contains("wrong-secret-token") && !text.contains("Bearer"), "\(text)")
        }
    }

    @Test func longListsGoInBatchesOfAHundred() async throws {
        let symbols = (0..<250).map { "S\($0)" }
        let servicer = FixtureRoutesServicer { _ throws(BrokerError) in
            HTTPResponse(status: 200, body: Data(#"{"quotes":{"quote":{"symbol":"S7","last":1.5}}}"#.utf8))
        }
        let results = try await broker(servicer).quotes(for: symbols)
        #expect(servicer.sent.map(\.symbols.count).sorted() == [50, 100, 100])
        #expect(Set(servicer.sent.flatMap(\.symbols)) == Set(symbols))
        #expect(results.count == 250)
        #expect(try results["S7"]?.get().last == exactDecimal("1.5"))
        #expect(results["S8"].map(Self.isPermanentFailure) == false)
    }

    /// A failed batch is the broker's failure, not a verdict on its rows: the whole call throws.
    @Test func aFailedBatchFailsTheWholeCall() async throws {
        let symbols = (0..<150).map { "S\($0)" }
        let servicer = FixtureRoutesServicer { request throws(BrokerError) in
            if request.url.query?.contains("S120") == true { return HTTPResponse(status: 503) }
            return HTTPResponse(status: 200, body: Data(#"{"quotes":{"quote":{"symbol":"S1","last":2}}}"#.utf8))
        }
        await #expect(throws: BrokerError.server(status: 503)) { try await broker(servicer).quotes(for: symbols) }
    }

    @Test func everyBatchFailingFailsTheRequest() async throws {
        let servicer = FixtureRoutesServicer { _ throws(BrokerError) in HTTPResponse(status: 502) }
        await #expect(throws: BrokerError.server(status: 502)) {
            try await broker(servicer).quotes(for: (0..<150).map { "S\($0)" })
        }
    }
}
