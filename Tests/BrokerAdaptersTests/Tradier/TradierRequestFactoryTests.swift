import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

@Suite struct TradierRequestFactoryTests {
    let credentials = TradierCredentials(token: "test-token")
    var factory: TradierRequestFactory {
        TradierRequestFactory(baseURL: .success(TradierRequestFactory.productionURL), credentials: credentials, userAgent: "commonbroker/test")
    }

    func expectTradierHeaders(_ request: HTTPRequest) {
        #expect(request.method == "GET")
        #expect(request.headerFields["Authorization"] == "Bearer test-token")
        #expect(request.headerFields["Accept"] == "application/json")
        #expect(request.headerFields["User-Agent"] == "commonbroker/test")
    }

    @Test func quotesForOneAndSeveralSymbols() throws {
        let one = try factory.quotes(["AAPL"]).get()
        #expect(one.httpRequest.url.absoluteString == "https://api.tradier.com/v1/markets/quotes?symbols=AAPL&greeks=false")
        expectTradierHeaders(one.httpRequest)
        #expect(one.secretNames == ["Authorization"])
        #expect(one.credentialHint == "check TRADIER_TOKEN")

        let two = try factory.quotes(["aapl", "MSFT"]).get()
        #expect(two.httpRequest.url.absoluteString == "https://api.tradier.com/v1/markets/quotes?symbols=AAPL,MSFT&greeks=false")
    }

    /// Tradier spells share classes with a slash (reference §1.2).
    @Test func shareClassesUseTheSlash() throws {
        let request = try factory.quotes(["AAPL", "brk.b", "BF/B"]).get()
        #expect(request.httpRequest.url.absoluteString == "https://api.tradier.com/v1/markets/quotes?symbols=AAPL,BRK/B,BF/B&greeks=false")
        #expect(TradierSymbol.wire("BRK.B") == "BRK/B")
        #expect(TradierSymbol.wire("SPY") == "SPY")
    }

    @Test func profileAndBalances() throws {
        let profile = try factory.profile().get()
        #expect(profile.httpRequest.url.absoluteString == "https://api.tradier.com/v1/user/profile")
        expectTradierHeaders(profile.httpRequest)
        #expect(profile.secretNames == ["Authorization"])

        let balances = try factory.balances(accountID: "6YA05708").get()
        #expect(balances.httpRequest.url.absoluteString == "https://api.tradier.com/v1/accounts/6YA05708/balances")
        expectTradierHeaders(balances.httpRequest)
        // An account id can never change the path.
        let odd = try factory.balances(accountID: "../orders?x=1").get()
        #expect(odd.httpRequest.url.absoluteString == "https://api.tradier.com/v1/accounts/..%2Forders%3Fx=1/balances")
    }

    @Test func sandboxAndOverriddenBaseURLs() throws {
        let sandbox = TradierRequestFactory(baseURL: .success(TradierRequestFactory.sandboxURL), credentials: credentials)
        #expect(try sandbox.profile().get().httpRequest.url.absoluteString == "https://sandbox.tradier.com/v1/user/profile")
        #expect(try sandbox.profile().get().httpRequest.headerFields["User-Agent"] == "commonbroker/0.1")

        let local = TradierRequestFactory(baseURL: .success(URL(string: "http://127.0.0.1:8123")!), credentials: credentials)
        #expect(try local.quotes(["AAPL"]).get().httpRequest.url.absoluteString == "http://127.0.0.1:8123/v1/markets/quotes?symbols=AAPL&greeks=false")
        let prefixed = TradierRequestFactory(baseURL: .success(URL(string: "http://127.0.0.1:8123/tradier/")!), credentials: credentials)
        #expect(try prefixed.profile().get().httpRequest.url.absoluteString == "http://127.0.0.1:8123/tradier/v1/user/profile")
    }

    @Test func missingOrBlankTokens() {
        for token in [nil, "", "  "] as [String?] {
            let factory = TradierRequestFactory(baseURL: .success(TradierRequestFactory.productionURL), credentials: TradierCredentials(token: token))
            #expect(factory.quotes(["AAPL"]).failure == .missingCredential(broker: "tradier", variable: "TRADIER_TOKEN"))
            #expect(factory.profile().failure == .missingCredential(broker: "tradier", variable: "TRADIER_TOKEN"))
        }
        let custom = TradierRequestFactory(
            baseURL: .success(TradierRequestFactory.productionURL), credentials: TradierCredentials(token: nil, tokenVariable: "MY_TRADIER"))
        #expect(custom.balances(accountID: "6YA05708").failure == .missingCredential(broker: "tradier", variable: "MY_TRADIER"))
        #expect(custom.credentialHint == "check MY_TRADIER")
    }

    @Test func symbolErrors() {
        #expect(factory.quotes([]).failure == .emptySymbolList)
        #expect(factory.quotes(["AAPL", "AA PL"]).failure == .invalidSymbol("AA PL"))
        #expect(factory.quotes(["AAPL,MSFT"]).failure == .invalidSymbol("AAPL,MSFT"))
        #expect(factory.quotes([""]).failure == .invalidSymbol(""))
        #expect(factory.quotes(["ABCDEFGHIJKLMNOP"]).failure == .invalidSymbol("ABCDEFGHIJKLMNOP"))
    }

    @Test func baseURLErrors() {
        let failed = TradierRequestFactory(baseURL: .failure(.badBaseURL("tradier has no sandbox")), credentials: credentials)
        #expect(failed.quotes(["AAPL"]).failure == .badBaseURL("tradier has no sandbox"))
        let ftp = TradierRequestFactory(baseURL: .success(URL(string: "ftp://api.tradier.com")!), credentials: credentials)
        #expect(ftp.profile().failure == .badBaseURL("ftp://api.tradier.com"))
        let hostless = TradierRequestFactory(baseURL: .success(URL(string: "https:")!), credentials: TradierCredentials(token: nil))
        // The base URL is checked before the credentials.
        #expect(hostless.profile().failure == .badBaseURL("https:"))
    }

    @Test func credentialsNeverPrintTheToken() {
        let secret = TradierCredentials(token: "test-token")
        for text in [String(describing: secret), String(reflecting: secret), "\(secret)"] {
            #expect(!text.contains("test-token"))
            #expect(text.contains("TRADIER_TOKEN"))
        }
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("test-token"))
    }
}

fileprivate extension Result {
    /// The failure, or nil on success; lets `#expect` compare construction errors directly.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
