import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct FinnhubRequestFactoryTests {
    let production: Result<URL, RequestConstructionError> = .success(URL(string: "https://finnhub.io")!)
    let credentials = FinnhubCredentials(token: "test-token")

    @Test func quoteIsOneGETWithTheKeyInAHeaderNotTheURL() throws {
        let factory = FinnhubRequestFactory(baseURL: production, credentials: credentials, userAgent: "commonbroker/test")
        let request = try factory.quote("AAPL").get()
        #expect(request.httpRequest.method == "GET")
        #expect(request.httpRequest.url.absoluteString == "https://finnhub.io/api/v1/quote?symbol=AAPL")
        #expect(request.httpRequest.headerFields["X-Finnhub-Token"] == "test-token")
        #expect(request.httpRequest.headerFields["Accept"] == "application/json")
        #expect(request.httpRequest.headerFields["User-Agent"] == "commonbroker/test")
        #expect(request.secretNames == ["X-Finnhub-Token", "token"])
        #expect(request.credentialHint == "check FINNHUB_TOKEN")
        #expect(request.httpRequest.url.absoluteString.contains("test-token") == false)
    }

    @Test func symbolsGoOutCanonicalAndQueryEncoded() throws {
        let factory = FinnhubRequestFactory(baseURL: production, credentials: credentials)
        #expect(try factory.quote("aapl").get().httpRequest.url.absoluteString == "https://finnhub.io/api/v1/quote?symbol=AAPL")
        #expect(try factory.quote("brk.b").get().httpRequest.url.absoluteString == "https://finnhub.io/api/v1/quote?symbol=BRK.B")
        #expect(try factory.quote("^GSPC").get().httpRequest.url.absoluteString == "https://finnhub.io/api/v1/quote?symbol=%5EGSPC")
    }

    @Test func anOverriddenBaseURLKeepsItsPortAndPathPrefix() throws {
        let local = FinnhubRequestFactory(baseURL: .success(URL(string: "http://127.0.0.1:8931")!), credentials: credentials)
        #expect(try local.quote("MSFT").get().httpRequest.url.absoluteString == "http://127.0.0.1:8931/api/v1/quote?symbol=MSFT")
        let proxied = FinnhubRequestFactory(baseURL: .success(URL(string: "http://127.0.0.1:8931/finnhub/")!), credentials: credentials)
        #expect(try proxied.quote("MSFT").get().httpRequest.url.absoluteString == "http://127.0.0.1:8931/finnhub/api/v1/quote?symbol=MSFT")
    }

    @Test func theHintNamesTheConfiguredVariable() throws {
        let factory = FinnhubRequestFactory(baseURL: production, credentials: FinnhubCredentials(token: "test-token", tokenVariable: "WORK_FINNHUB"))
        #expect(try factory.quote("AAPL").get().credentialHint == "check WORK_FINNHUB")
    }

    @Test(arguments: [nil, "", "  \n"] as [String?])
    func aMissingOrBlankTokenIsAMissingCredential(token: String?) {
        let factory = FinnhubRequestFactory(baseURL: production, credentials: FinnhubCredentials(token: token))
        #expect(throws: RequestConstructionError.missingCredential(broker: "finnhub", variable: "FINNHUB_TOKEN")) {
            try factory.quote("AAPL").get()
        }
    }

    @Test(arguments: ["", "AA PL", "A;B", "ABCDEFGHIJKLMNOP"])
    func symbolsThatAreNotSymbolsAreRejected(symbol: String) {
        let factory = FinnhubRequestFactory(baseURL: production, credentials: credentials)
        #expect(throws: RequestConstructionError.invalidSymbol(symbol)) { try factory.quote(symbol).get() }
    }

    @Test func badBaseURLsAreRejected() {
        for base in ["ftp://finnhub.io", "finnhub.io", "file:///tmp/finnhub"] {
            let factory = FinnhubRequestFactory(baseURL: .success(URL(string: base)!), credentials: credentials)
            #expect(throws: RequestConstructionError.badBaseURL(base)) { try factory.quote("AAPL").get() }
        }
        let noSandbox = ServiceContext(environment: .sandbox, servicer: NoNetwork())
            .baseURL(for: "finnhub", production: FinnhubBroker.productionBaseURL, sandbox: nil)
        let factory = FinnhubRequestFactory(baseURL: noSandbox, credentials: credentials)
        #expect(throws: RequestConstructionError.badBaseURL("finnhub has no sandbox")) { try factory.quote("AAPL").get() }
    }

    @Test func credentialsNeverPrintTheirKey() {
        let credentials = FinnhubCredentials(token: "test-token")
        #expect(!"\(credentials)".contains("test-token"))
        #expect(!String(reflecting: credentials).contains("test-token"))
        #expect("\(FinnhubCredentials(token: nil))".contains("none"))
    }
}

/// A servicer for code paths that must not send anything.
struct NoNetwork: RequestServicer {
    func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        Issue.record("unexpected request to \(request.url.absoluteString)")
        throw .network("no network in this test")
    }
}
