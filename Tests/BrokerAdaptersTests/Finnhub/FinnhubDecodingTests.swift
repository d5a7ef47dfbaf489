import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct FinnhubDecodingTests {
    func fixture(_ name: String) throws -> Data { try FixtureFiles.data("finnhub", name) }

    @Test func aQuoteDecodesEveryFieldAndStampsInSeconds() throws {
        let wire = try FinnhubResponseMapping.decodeQuote(HTTPResponse(status: 200, body: fixture("quote-aapl.json")))
        #expect(wire == FinnhubQuote(current: exactDecimal("227.52"), change: exactDecimal("-1.34"), percentChange: exactDecimal("-0.5855"), high: exactDecimal("229.41"), low: exactDecimal("226.7"), open: exactDecimal("228.9"), previousClose: exactDecimal("228.86"), time: 1_731_528_912))
        let quote = try FinnhubResponseMapping.quote(from: wire, symbol: "aapl").get()
        #expect(quote == CommonQuote(symbol: "aapl", last: exactDecimal("227.52"), timestamp: Date(timeIntervalSince1970: 1_731_528_912), previousClose: exactDecimal("228.86")))
        #expect(quote.bid == nil && quote.ask == nil && quote.volume == nil)
    }

    @Test func allZerosWithNullChangeIsAnUnknownSymbol() throws {
        let wire = try FinnhubResponseMapping.decodeQuote(HTTPResponse(status: 200, body: fixture("quote-unknown.json")))
        #expect(wire.change == nil && wire.percentChange == nil && wire.time == 0 && wire.hasNoData)
        #expect(FinnhubResponseMapping.quote(from: wire, symbol: "ZZZZ") == .failure(.unknownSymbol("ZZZZ")))
    }

    @Test func aZeroPreviousCloseIsNoPreviousClose() throws {
        let body = Data(#"{"c":31.5,"d":null,"dp":null,"h":33,"l":30.1,"o":32,"pc":0,"t":1731528912}"#.utf8)
        let wire = try FinnhubResponseMapping.decodeQuote(HTTPResponse(status: 200, body: body))
        #expect(try FinnhubResponseMapping.quote(from: wire, symbol: "NEWCO").get().previousClose == nil)
    }

    @Test func statusesMapToPreciseErrors() throws {
        let hint = "check FINNHUB_TOKEN"
        let unauthorized = HTTPResponse(status: 401, body: try fixture("error-401.json"))
        #expect(FinnhubResponseMapping.error(for: unauthorized, credentialHint: hint) == .unauthorized(hint: "check FINNHUB_TOKEN"))
        let premium = HTTPResponse(status: 403, body: try fixture("error-403.json"))
        #expect(FinnhubResponseMapping.error(for: premium, credentialHint: hint) == .unauthorized(hint: "your Finnhub plan does not include this data"))
        let limited = HTTPResponse(status: 429, headers: ["Retry-After": "30"], body: try fixture("error-429.json"))
        #expect(FinnhubResponseMapping.error(for: limited, credentialHint: hint) == .rateLimited(retryAfter: 30))
        #expect(FinnhubResponseMapping.error(for: HTTPResponse(status: 500), credentialHint: hint) == .server(status: 500))
        #expect(FinnhubResponseMapping.error(for: HTTPResponse(status: 200), credentialHint: hint) == nil)
    }

    @Test func garbageIsABadResponseWithAShortExcerpt() {
        let page = "<html><body>" + String(repeating: "502 Bad Gateway ", count: 40) + "</body></html>"
        #expect(throws: BrokerError.badResponse("not a Finnhub quote: <html><body>502 Bad Gateway 502 Bad Gateway 502 Bad Gateway 502 Bad Gateway 502 …")) {
            try FinnhubResponseMapping.decodeQuote(HTTPResponse(status: 200, body: Data(page.utf8)))
        }
        #expect(throws: BrokerError.badResponse("not a Finnhub quote: {\"c\":227.52,\"d\":-1.34")) {
            try FinnhubResponseMapping.decodeQuote(HTTPResponse(status: 200, body: Data(#"{"c":227.52,"d":-1.34"#.utf8)))
        }
    }

    @Test func anErrorBodyInsideA200SaysWhatFinnhubSaid() throws {
        #expect(throws: BrokerError.badResponse("finnhub: You don't have access to this resource.")) {
            try FinnhubResponseMapping.decodeQuote(HTTPResponse(status: 200, body: try fixture("error-403.json")))
        }
    }
}
