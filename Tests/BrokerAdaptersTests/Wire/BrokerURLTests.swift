import Foundation
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct BrokerURLTests {
    func joined(_ base: String, _ path: String, _ query: [URLQueryItem] = []) -> String? {
        try? BrokerURL.join(base: URL(string: base)!, path: path, query: query).get().absoluteString
    }

    @Test func thePathFollowsTheBasesPrefix() {
        #expect(joined("https://api.example.com", "/v1/quote") == "https://api.example.com/v1/quote")
        #expect(joined("https://api.example.com/", "/v1/quote") == "https://api.example.com/v1/quote")
        #expect(joined("http://127.0.0.1:8123/tradier", "/v1/quote") == "http://127.0.0.1:8123/tradier/v1/quote")
        #expect(joined("http://127.0.0.1:8123/tradier//", "/v1/quote") == "http://127.0.0.1:8123/tradier/v1/quote")
        #expect(joined("HTTPS://api.example.com", "/v1/accounts/..%2Fx/balances") == "HTTPS://api.example.com/v1/accounts/..%2Fx/balances")
    }

    @Test func theQueryIsTheEndpointsOnly() {
        let symbol = [URLQueryItem(name: "symbol", value: "^GSPC")]
        #expect(joined("https://api.example.com/?apiKey=SECRET#top", "/v1/quote", symbol) == "https://api.example.com/v1/quote?symbol=%5EGSPC")
        #expect(joined("https://api.example.com/?apiKey=SECRET#top", "/v1/quote") == "https://api.example.com/v1/quote")
    }

    @Test(arguments: ["ftp://api.example.com", "file:///tmp", "https:", "x", "mailto:someone@example.com"])
    func onlyHTTPWithAHostIsABase(base: String) {
        let url = URL(string: base)!
        #expect(BrokerURL.validated(url) == .failure(.badBaseURL(base)))
        #expect(BrokerURL.join(base: url, path: "/v1") == .failure(.badBaseURL(base)))
    }
}
