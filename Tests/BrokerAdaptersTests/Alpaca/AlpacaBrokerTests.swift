import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct AlpacaBrokerTests {
    static let now = Date(timeIntervalSince1970: 1_731_528_960)
    let credentials = AlpacaCredentials(keyID: AlpacaFixtures.keyID, secretKey: AlpacaFixtures.secretKey)
    let keysHint = "check APCA_API_KEY_ID and APCA_API_SECRET_KEY"

    func broker(_ servicer: FixtureRoutesServicer, credentials: AlpacaCredentials? = nil) -> AlpacaBroker {
        AlpacaBroker(context: ServiceContext(servicer: servicer), credentials: credentials ?? self.credentials, now: { Self.now })
    }

    func routes() throws -> FixtureRoutesServicer { try FixtureRoutesServicer(broker: "alpaca") }

    func date(_ text: String) throws -> Date { try #require(RFC3339.date(from: text)) }

    /// The error `body` throws, or nil when it returns.
    func thrown<T>(_ body: () async throws(BrokerError) -> T) async -> BrokerError? {
        do throws(BrokerError) {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    func symbolsQuery(_ request: HTTPRequest?) -> String? {
        request.flatMap { URLComponents(url: $0.url, resolvingAgainstBaseURL: false) }?
            .queryItems?.first(where: { $0.name == "symbols" })?.value
    }

    @Test func branding() {
        #expect(AlpacaBroker.branding == ServiceBranding(id: "alpaca", name: "Alpaca", glyph: "A", color: .yellow))
        #expect(broker(.answering(status: 500, body: "")).branding.id == "alpaca")
    }

    @Test func quotesFromSnapshots() async throws {
        let servicer = try routes()
        let results = try await broker(servicer).quotes(for: ["AAPL", "MSFT", "BOGUS"])
        #expect(servicer.requests.count == 1)
        #expect(results.count == 3)

        let aapl = try results["AAPL"]?.get()
        #expect(aapl == CommonQuote(
            symbol: "AAPL", last: exactDecimal("227.52"), timestamp: try date("2024-11-13T20:15:02.441Z"),
            bid: exactDecimal("227.5"), ask: exactDecimal("227.53"), previousClose: exactDecimal("228.86"), volume: 812_340
        ))
        let msft = try results["MSFT"]?.get()
        #expect(msft == CommonQuote(
            symbol: "MSFT", last: exactDecimal("423.1"), timestamp: try date("2024-11-13T20:15:01.002071Z"),
            bid: exactDecimal("423.09"), ask: exactDecimal("423.12"), previousClose: nil, volume: nil
        ))
        #expect(results["BOGUS"] == .failure(.unknownSymbol("BOGUS")))
    }

    @Test func rowsKeepTheUsersSpelling() async throws {
        let results = try await broker(routes()).quotes(for: ["aapl", "Msft", "bogus"])
        #expect(Set(results.keys) == ["aapl", "Msft", "bogus"])
        #expect(try results["aapl"]?.get().symbol == "aapl")
        #expect(try results["Msft"]?.get().last == exactDecimal("423.1"))
        #expect(results["bogus"] == .failure(.unknownSymbol("bogus")))
    }

    @Test func symbolsLeftOutOfTheMapAreUnknown() async throws {
        let results = try await broker(routes()).quotes(for: ["AAPL", "NVDA"])
        #expect(try results["AAPL"]?.get().last == exactDecimal("227.52"))
        #expect(results["NVDA"] == .failure(.unknownSymbol("NVDA")))
    }

    @Test func invalidSymbolsFailTheirRowOnly() async throws {
        let servicer = try routes()
        let results = try await broker(servicer).quotes(for: ["AAPL", "A B", "\u{1B}[2J"])
        #expect(try results["AAPL"]?.get().last == exactDecimal("227.52"))
        #expect(results["A B"] == .failure(.unknownSymbol("A B")))
        #expect(results["\u{1B}[2J"] == .failure(.unknownSymbol("\\u{1b}[2J")))
        #expect(symbolsQuery(servicer.requests.first) == "AAPL")
    }

    @Test func noSymbolsNoRequest() async throws {
        let servicer = try routes()
        #expect(try await broker(servicer).quotes(for: []).isEmpty)
        #expect(servicer.requests.isEmpty)
    }

    @Test func timestampsKeepTheirFractions() async throws {
        let results = try await broker(routes()).quotes(for: ["SPY", "QQQ", "IWM", "DIA"])
        #expect(try results["SPY"]?.get().timestamp == date("2024-11-13T20:15:03Z"))
        #expect(try results["QQQ"]?.get().timestamp == date("2024-11-13T20:15:03.120Z"))
        #expect(try results["IWM"]?.get().timestamp == date("2024-11-13T20:15:02.004527Z"))
        let dia = try #require(try results["DIA"]?.get())
        #expect(abs(dia.timestamp.timeIntervalSince1970 - 1_731_528_901.000000001) < 1e-6)
        #expect(dia.last == exactDecimal("440.12"))
    }

    @Test func withoutATradeLastIsTheQuoteMid() async throws {
        let body = #"{"AAPL":{"latestTrade":null,"latestQuote":{"t":"2024-11-13T20:15:03.5Z","ap":227.6,"bp":227.4},"dailyBar":null,"prevDailyBar":{"c":228.86}}}"#
        let quote = try await broker(.answering(status: 200, body: body)).quotes(for: ["AAPL"])["AAPL"]?.get()
        #expect(quote?.last == exactDecimal("227.5"))
        #expect(quote?.timestamp == (try date("2024-11-13T20:15:03.5Z")))
        #expect(quote?.previousClose == exactDecimal("228.86"))
    }

    @Test func rowsWithoutAPriceOrTimestampSayWhy() async throws {
        let body = #"""
        {"ONESIDE":{"latestTrade":null,"latestQuote":{"t":"2024-11-13T20:15:03Z","ap":0,"bp":10.5}},
         "NOSTAMP":{"latestTrade":{"p":5.25}},
         "BADSTAMP":{"latestTrade":{"t":"13/11/2024 20:15","p":5.25}},
         "ZEROBID":{"latestTrade":{"t":"2024-11-13T20:15:03Z","p":5.25},"latestQuote":{"t":"2024-11-13T20:15:03Z","ap":5.3,"bp":0}}}
        """#
        let results = try await broker(.answering(status: 200, body: body)).quotes(for: ["ONESIDE", "NOSTAMP", "BADSTAMP", "ZEROBID"])
        #expect(results["ONESIDE"] == .failure(.badResponse("alpaca sent no trade or two-sided quote for ONESIDE")))
        #expect(results["NOSTAMP"] == .failure(.badResponse("alpaca sent no timestamp for NOSTAMP")))
        #expect(results["BADSTAMP"] == .failure(.badResponse("alpaca timestamp for BADSTAMP is not RFC 3339: 13/11/2024 20:15")))
        // A zero bid is "no bid" on IEX, not a price of 0.
        let zeroBid = try results["ZEROBID"]?.get()
        #expect(zeroBid?.bid == nil)
        #expect(zeroBid?.ask == exactDecimal("5.3"))
    }

    @Test func sipOnAFreePlanSaysToUseIEX() async throws {
        let sip = AlpacaCredentials(keyID: AlpacaFixtures.keyID, secretKey: AlpacaFixtures.secretKey, feed: "sip")
        let alpaca = try broker(routes(), credentials: sip)
        let error = await thrown { () async throws(BrokerError) in try await alpaca.quotes(for: ["AAPL"]) }
        #expect(error == .unauthorized(hint: "your Alpaca plan does not include SIP data; set feed to iex"))
        #expect(error?.isPermanent == true)
    }

    @Test func rejectedKeysSayWhichVariablesToCheck() async throws {
        let wrong = AlpacaCredentials(keyID: "wrong-key-id", secretKey: "wrong-secret")
        let alpaca = try broker(routes(), credentials: wrong)
        let dataError = await thrown { () async throws(BrokerError) in try await alpaca.quotes(for: ["AAPL"]) }
        #expect(dataError == .unauthorized(hint: keysHint))
        #expect(dataError?.description == "unauthorized, check APCA_API_KEY_ID and APCA_API_SECRET_KEY")

        let accountError = await thrown { () async throws(BrokerError) in try await alpaca.balances() }
        #expect(accountError == .unauthorized(hint: keysHint))
        let authError = await thrown { () async throws(BrokerError) in try await alpaca.validateCredentials() }
        #expect(authError == .unauthorized(hint: keysHint))
    }

    @Test func missingKeysFailBeforeAnyRequest() async throws {
        let servicer = try routes()
        let none = AlpacaCredentials(keyID: nil, secretKey: nil)
        let error = await thrown { () async throws(BrokerError) in try await broker(servicer, credentials: none).quotes(for: ["AAPL"]) }
        #expect(error == .unauthorized(hint: "set APCA_API_KEY_ID and APCA_API_SECRET_KEY"))
        let accountError = await thrown { () async throws(BrokerError) in try await broker(servicer, credentials: none).balances() }
        #expect(accountError == .unauthorized(hint: "set APCA_API_KEY_ID and APCA_API_SECRET_KEY"))
        #expect(servicer.requests.isEmpty)
    }

    @Test func rateLimitedWithRetryAfter() async throws {
        let alpaca = try broker(routes())
        let error = await thrown { () async throws(BrokerError) in try await alpaca.quotes(for: ["RATE"]) }
        #expect(error == .rateLimited(retryAfter: 3))
    }

    @Test func rateLimitResetIsEpochSeconds() async throws {
        let reset = Int(Self.now.timeIntervalSince1970) + 42
        let servicer = FixtureRoutesServicer { _ throws(BrokerError) in
            HTTPResponse(status: 429, headers: ["X-Ratelimit-Reset": "\(reset)", "X-Ratelimit-Remaining": "0"], body: Data(#"{"message":"too many requests."}"#.utf8))
        }
        let error = await thrown { () async throws(BrokerError) in try await broker(servicer).quotes(for: ["AAPL"]) }
        #expect(error == .rateLimited(retryAfter: 42))
    }

    @Test func serverErrorsGarbageAndBrokenConnections() async throws {
        let alpaca = try broker(routes())
        #expect(await thrown { () async throws(BrokerError) in try await alpaca.quotes(for: ["BOOM"]) } == .server(status: 500))
        #expect(await thrown { () async throws(BrokerError) in try await alpaca.quotes(for: ["GARBAGE"]) }
            == .badResponse("undecodable snapshots (HTTP 200): <html><body><h1>502 Bad Gateway</h1></body></html> "))
        #expect(await thrown { () async throws(BrokerError) in try await alpaca.quotes(for: ["DROP"]) }
            == .network("connection closed before a response (fixture route dropped)"))
        let truncated = await thrown { () async throws(BrokerError) in try await alpaca.quotes(for: ["AAPL", "MSFT", "TRUNC"]) }
        guard case .badResponse(let detail) = truncated else {
            Issue.record("a truncated body should be a bad response, got \(String(describing: truncated))")
            return
        }
        #expect(detail.hasPrefix("undecodable snapshots (HTTP 200): {\"AAPL\""))
        #expect(detail.count < 140)
    }

    @Test func statusesAlpacaExplainsInTheBody() async throws {
        let invalid = FixtureRoutesServicer.answering(status: 400, body: #"{"code":40010001,"message":"invalid symbol: 123"}"#)
        #expect(await thrown { () async throws(BrokerError) in try await broker(invalid).quotes(for: ["AAPL"]) }
            == .badResponse("HTTP 400: invalid symbol: 123"))
        let notFound = FixtureRoutesServicer.answering(status: 404, body: #"{"message":"Not Found"}"#)
        #expect(await thrown { () async throws(BrokerError) in try await broker(notFound).quotes(for: ["AAPL"]) }
            == .badResponse(#"HTTP 404 (not found): {"message":"Not Found"}"#))
        let messageIn200 = FixtureRoutesServicer.answering(status: 200, body: #"{"message":"feed not supported"}"#)
        #expect(await thrown { () async throws(BrokerError) in try await broker(messageIn200).quotes(for: ["AAPL"]) }
            == .badResponse("alpaca: feed not supported"))
    }

    @Test func balancesAndIdentityFromTheTradingAccount() async throws {
        let servicer = try routes()
        let alpaca = broker(servicer)
        #expect(try await alpaca.balances() == [AccountBalance(accountID: "PA3X7NR2QYB5", cash: exactDecimal("131056.816"), buyingPower: exactDecimal("262113.632"), equity: exactDecimal("131056.816"))])
        #expect(try await alpaca.validateCredentials() == "PA3X7NR2QYB5")
        #expect(servicer.requests.map { $0.url.absoluteString } == Array(repeating: "https://api.alpaca.markets/v2/account", count: 2))
    }

    @Test func undecodableAccount() async throws {
        let garbage = FixtureRoutesServicer.answering(status: 200, body: #"{"status":"ACTIVE"}"#)
        #expect(await thrown { () async throws(BrokerError) in try await broker(garbage).balances() }
            == .badResponse(#"undecodable account (HTTP 200): {"status":"ACTIVE"}"#))
    }

    @Test func largeWatchlistsAreBatchedWithBoundedConcurrency() async throws {
        // 10 full batches and a partial one: enough to exceed the concurrency bound if it were missing.
        let symbols = (0..<1_050).map { "S\($0)" }
        let servicer = FixtureRoutesServicer { request throws(BrokerError) in
            let asked = self.symbolsQuery(request)?.split(separator: ",") ?? []
            let entries = asked.map { #""\#($0)":{"latestTrade":{"t":"2024-11-13T20:15:02Z","p":10.5}}"# }
            return HTTPResponse(status: 200, body: Data("{\(entries.joined(separator: ","))}".utf8))
        }
        let results = try await broker(servicer).quotes(for: symbols)
        #expect(results.count == 1_050)
        #expect(results.values.allSatisfy { (try? $0.get().last) == exactDecimal("10.5") })
        let batches = servicer.requests.map { symbolsQuery($0)?.split(separator: ",").map(String.init) ?? [] }
        #expect(batches.map(\.count).sorted() == [50] + Array(repeating: 100, count: 10))
        #expect(Set(batches.flatMap { $0 }) == Set(symbols))
        #expect(servicer.maxInFlight <= 4)
        #expect(AlpacaBroker.symbolsPerRequest == 100)
    }

    /// A failed batch is the broker's failure, not a verdict on its 100 rows: the whole call throws, and the
    /// batches not yet sent are not sent.
    @Test func aFailedBatchFailsTheWholeCall() async throws {
        let symbols = (0..<150).map { "S\($0)" }
        let servicer = FixtureRoutesServicer { request throws(BrokerError) in
            let asked = self.symbolsQuery(request)?.split(separator: ",") ?? []
            if asked.contains("S0") { return HTTPResponse(status: 500, body: Data()) }
            let entries = asked.map { #""\#($0)":{"latestTrade":{"t":"2024-11-13T20:15:02Z","p":1}}"# }
            return HTTPResponse(status: 200, body: Data("{\(entries.joined(separator: ","))}".utf8))
        }
        #expect(await thrown { () async throws(BrokerError) in try await broker(servicer).quotes(for: symbols) } == .server(status: 500))

        let down = FixtureRoutesServicer.answering(status: 503, body: "")
        #expect(await thrown { () async throws(BrokerError) in try await broker(down).quotes(for: symbols) } == .server(status: 503))
    }

    /// An entry of the wrong shape (wrong types, a number out of range) makes the body undecodable: the
    /// request failed, and no row of it, not even the well-formed ones, gets a verdict.
    @Test(arguments: [
        #"{"AAPL":{"latestTrade":{"t":"2024-11-13T20:15:02Z","p":1}},"MSFT":{"latestTrade":{"p":[1]}}}"#,
        #"{"AAPL":{"latestTrade":{"t":"2024-11-13T20:15:02Z","p":1}},"MSFT":{"latestTrade":{"t":"2024-11-13T20:15:02Z","p":1e999}}}"#,
        #"{"AAPL":{"latestTrade":{"t":"2024-11-13T20:15:02Z","p":1}},"MSFT":"snapshot"}"#,
    ])
    func anEntryOfTheWrongShapeFailsTheRequest(body: String) async {
        let error = await thrown { () async throws(BrokerError) in
            try await broker(.answering(status: 200, body: body)).quotes(for: ["AAPL", "MSFT"])
        }
        guard case .badResponse(let detail)? = error else {
            Issue.record("expected a bad response, got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("alpaca: unexpected response: the snapshot for MSFT: "))
    }

    /// Every failure above, plus bodies that echo the keys back, never shows a key, not even in part.
    @Test func noSecretInAnyError() async throws {
        let secretEcho = "APCA-API-KEY-ID: \(AlpacaFixtures.keyID)\r\nAPCA-API-SECRET-KEY: \(AlpacaFixtures.secretKey)"
        let padding = String(repeating: "x", count: 75)
        let echoes: [FixtureRoutesServicer] = [
            .answering(status: 200, body: "<pre>\(secretEcho)</pre>"),
            .answering(status: 404, body: secretEcho),
            .answering(status: 418, body: secretEcho),
            .answering(status: 400, body: #"{"message":"bad key \#(AlpacaFixtures.secretKey)"}"#),
            .answering(status: 200, body: #"{"message":"bad key \#(AlpacaFixtures.keyID)"}"#),
            // The 80-byte excerpt would cut the secret in half.
            .answering(status: 200, body: padding + AlpacaFixtures.secretKey),
            .answering(status: 404, body: padding + AlpacaFixtures.secretKey),
        ]
        var errors: [BrokerError] = []
        for servicer in echoes {
            if let error = await thrown({ () async throws(BrokerError) in try await broker(servicer).quotes(for: ["AAPL"]) }) {
                errors.append(error)
            }
        }
        #expect(errors.count == echoes.count)
        #expect(errors.contains { $0.description.contains("<redacted>") })

        let routed = try routes()
        let sip = AlpacaCredentials(keyID: AlpacaFixtures.keyID, secretKey: AlpacaFixtures.secretKey, feed: "sip")
        for (symbols, credentials) in [(["RATE"], credentials), (["BOOM"], credentials), (["GARBAGE"], credentials),
                                       (["DROP"], credentials), (["AAPL", "MSFT", "TRUNC"], credentials), (["AAPL"], sip)] {
            if let error = await thrown({ () async throws(BrokerError) in try await broker(routed, credentials: credentials).quotes(for: symbols) }) {
                errors.append(error)
            }
        }
        #expect(errors.count == echoes.count + 6)
        for error in errors {
            for text in [error.description, error.shortReason] {
                #expect(!text.contains("test-sec"), "\(text)")
                #expect(!text.contains("test-key"), "\(text)")
            }
        }
    }
}
