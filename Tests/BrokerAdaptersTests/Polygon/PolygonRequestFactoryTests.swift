import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct PolygonRequestFactoryTests {
    let production: Result<URL, RequestConstructionError> = .success(PolygonBroker.productionBaseURL)
    let credentials = PolygonCredentials(apiKey: "test-key")
    let snapshotPath = "/v2/snapshot/locale/us/markets/stocks/tickers/"

    @Test func snapshotIsOneGETWithABearerKey() throws {
        let factory = PolygonRequestFactory(baseURL: production, credentials: credentials, userAgent: "commonbroker/test")
        let request = try factory.snapshot("AAPL").get()
        #expect(request.httpRequest.method == "GET")
        #expect(request.httpRequest.url.absoluteString == "https://api.polygon.io/v2/snapshot/locale/us/markets/stocks/tickers/AAPL")
        #expect(request.httpRequest.headerFields["Authorization"] == "Bearer test-key")
        #expect(request.httpRequest.headerFields["Accept"] == "application/json")
        #expect(request.httpRequest.headerFields["User-Agent"] == "commonbroker/test")
        #expect(request.secretNames == ["Authorization", "apiKey"])
        #expect(request.credentialHint == "check POLYGON_API_KEY")
        #expect(request.httpRequest.url.absoluteString.contains("test-key") == false)
    }

    @Test func tickersGoOutCanonicalAndStayInTheirPathSegment() throws {
        let factory = PolygonRequestFactory(baseURL: production, credentials: credentials)
        let url = { (ticker: String) in try factory.snapshot(ticker).get().httpRequest.url.absoluteString }
        #expect(try url("msft") == "https://api.polygon.io\(snapshotPath)MSFT")
        #expect(try url("BRK.B") == "https://api.polygon.io\(snapshotPath)BRK.B")
        #expect(try url("BRK/B") == "https://api.polygon.io\(snapshotPath)BRK%2FB")
        #expect(try url("^VIX") == "https://api.polygon.io\(snapshotPath)%5EVIX")
    }

    @Test func theBaseURLIsConfigurable() throws {
        let massive = PolygonRequestFactory(baseURL: .success(PolygonBroker.massiveBaseURL), credentials: credentials)
        #expect(try massive.snapshot("AAPL").get().httpRequest.url.absoluteString == "https://api.massive.com\(snapshotPath)AAPL")
        let local = PolygonRequestFactory(baseURL: .success(URL(string: "http://127.0.0.1:8932/polygon/")!), credentials: credentials)
        #expect(try local.snapshot("AAPL").get().httpRequest.url.absoluteString == "http://127.0.0.1:8932/polygon\(snapshotPath)AAPL")
    }

    @Test func theHintNamesTheConfiguredVariable() throws {
        let factory = PolygonRequestFactory(baseURL: production, credentials: PolygonCredentials(apiKey: "test-key", apiKeyVariable: "MASSIVE_KEY"))
        #expect(try factory.snapshot("AAPL").get().credentialHint == "check MASSIVE_KEY")
    }

    @Test(arguments: [nil, "", " "] as [String?])
    func aMissingOrBlankKeyIsAMissingCredential(key: String?) {
        let factory = PolygonRequestFactory(baseURL: production, credentials: PolygonCredentials(apiKey: key))
        #expect(throws: RequestConstructionError.missingCredential(broker: "polygon", variable: "POLYGON_API_KEY")) {
            try factory.snapshot("AAPL").get()
        }
    }

    @Test(arguments: ["", "I:SPX", "AA PL", "ABCDEFGHIJKLMNOP"])
    func tickersThatAreNotSymbolsAreRejected(ticker: String) {
        let factory = PolygonRequestFactory(baseURL: production, credentials: credentials)
        #expect(throws: RequestConstructionError.invalidSymbol(ticker)) { try factory.snapshot(ticker).get() }
    }

    @Test func badBaseURLsAreRejected() {
        for base in ["ws://api.polygon.io", "api.polygon.io"] {
            let factory = PolygonRequestFactory(baseURL: .success(URL(string: base)!), credentials: credentials)
            #expect(throws: RequestConstructionError.badBaseURL(base)) { try factory.snapshot("AAPL").get() }
        }
        let factory = PolygonRequestFactory(baseURL: .failure(.badBaseURL("polygon has no sandbox")), credentials: credentials)
        #expect(throws: RequestConstructionError.badBaseURL("polygon has no sandbox")) { try factory.snapshot("AAPL").get() }
    }

    @Test func credentialsNeverPrintTheirKey() {
        let credentials = PolygonCredentials(apiKey: "test-key")
        #expect(!"\(credentials)".contains("test-key"))
        #expect(!String(reflecting: credentials).contains("test-key"))
    }
}
