import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct PolygonDecodingTests {
    let hint = "check POLYGON_API_KEY"

    func fixture(_ name: String) throws -> Data { try FixtureFiles.data("polygon", name) }

    func snapshot(_ json: String) throws -> PolygonSnapshotResponse {
        try PolygonResponseMapping.decodeSnapshot(HTTPResponse(status: 200, body: Data(json.utf8)))
    }

    @Test func theReferenceSnapshotDecodesWithCaseSensitiveKeysAndExactNanoseconds() throws {
        let response = try PolygonResponseMapping.decodeSnapshot(HTTPResponse(status: 200, body: fixture("snapshot-aapl.json")))
        #expect(response.status == "OK" && response.requestID == "6a7e466379af0a71039d60cc78e72282")
        let ticker = try #require(response.ticker)
        #expect(ticker.ticker == "AAPL")
        #expect(ticker.todaysChange == exactDecimal("-1.34") && ticker.todaysChangePercent == exactDecimal("-0.585"))
        #expect(ticker.updated == 1_731_528_912_441_000_000)
        #expect(ticker.lastQuote == PolygonLastQuote(askPrice: exactDecimal("227.53"), askSize: 2, bidPrice: exactDecimal("227.5"), bidSize: 3, nanoseconds: 1_731_528_913_000_123_456))
        #expect(ticker.lastTrade == PolygonLastTrade(conditions: [12, 37], tradeID: "52983", price: exactDecimal("227.52"), size: 100, nanoseconds: 1_731_528_912_441_000_000, exchange: 4))
        #expect(ticker.day == PolygonDayBar(open: exactDecimal("228.9"), high: exactDecimal("229.41"), low: exactDecimal("226.7"), close: exactDecimal("227.52"), volume: 38_211_905, volumeWeightedPrice: exactDecimal("227.93")))
        #expect(ticker.previousDay?.close == exactDecimal("228.86"))
        // `min.t` is milliseconds, unlike its neighbours.
        #expect(ticker.minute?.startMilliseconds == 1_731_528_840_000 && ticker.minute?.transactions == 412)
        // Through Double this stamp would come back as …123392: proof it was decoded as an integer.
        #expect(Int64(exactly: Double(1_731_528_913_000_123_456 as Int64)) != 1_731_528_913_000_123_456)
    }

    @Test func aSnapshotBecomesAQuote() throws {
        let response = try PolygonResponseMapping.decodeSnapshot(HTTPResponse(status: 200, body: fixture("snapshot-aapl.json")))
        let quote = try PolygonResponseMapping.quote(from: response, symbol: "aapl").get()
        #expect(quote.symbol == "aapl")
        #expect(quote.last == exactDecimal("227.52"))
        #expect(quote.bid == exactDecimal("227.5") && quote.ask == exactDecimal("227.53"))
        #expect(quote.previousClose == exactDecimal("228.86"))
        #expect(quote.volume == 38_211_905)
        #expect(abs(quote.timestamp.timeIntervalSince1970 - 1_731_528_912.441) < 1e-6)
    }

    @Test func nullTradeConditionsAreFine() throws {
        let response = try PolygonResponseMapping.decodeSnapshot(HTTPResponse(status: 200, body: fixture("snapshot-msft.json")))
        #expect(response.ticker?.lastTrade?.conditions == nil)
        #expect(response.ticker?.lastTrade?.nanoseconds == 1_731_528_912_512_345_678)
        let quote = try PolygonResponseMapping.quote(from: response, symbol: "MSFT").get()
        #expect(quote.last == exactDecimal("423.46") && quote.bid == exactDecimal("423.45") && quote.ask == exactDecimal("423.49") && quote.previousClose == exactDecimal("421.31") && quote.volume == 18_324_711)
        #expect(abs(quote.timestamp.timeIntervalSince1970 - 1_731_528_912.512_345_678) < 1e-6)
    }

    @Test func nanosecondsSplitBeforeBecomingADate() throws {
        let date = try #require(PolygonResponseMapping.date(unixNanoseconds: 1_731_528_913_000_123_456))
        #expect(abs(date.timeIntervalSince1970 - 1_731_528_913.000_123_456) < 1e-6)
        #expect(PolygonResponseMapping.date(unixNanoseconds: 999_999_999) == Date(timeIntervalSince1970: 0.999_999_999))
        #expect(PolygonResponseMapping.date(unixNanoseconds: 0) == nil)
        #expect(PolygonResponseMapping.date(unixNanoseconds: nil) == nil)
    }

    // The fallbacks below use snapshots cut down by hand: the reference shows no capture without a last trade.
    @Test func withoutALastTradeTheDayCloseAndUpdatedStandIn() throws {
        let response = try snapshot(#"{"request_id":"r","status":"OK","ticker":{"ticker":"XYZ","updated":1731528900000000000,"day":{"o":10,"h":11,"l":9.5,"c":10.5,"v":1200.0,"vw":10.2},"prevDay":{"o":9,"h":10,"l":8.9,"c":9.8,"v":900,"vw":9.5}}}"#)
        let quote = try PolygonResponseMapping.quote(from: response, symbol: "XYZ").get()
        #expect(quote == CommonQuote(symbol: "XYZ", last: exactDecimal("10.5"), timestamp: Date(timeIntervalSince1970: 1_731_528_900), previousClose: exactDecimal("9.8"), volume: 1200))
    }

    @Test func aSnapshotWithoutAnyPriceOrStampIsABadResponse() throws {
        let noPrice = try snapshot(#"{"status":"OK","ticker":{"ticker":"XYZ","updated":1731528900000000000,"day":{"o":0,"h":0,"l":0,"c":0,"v":0,"vw":0},"lastTrade":{"c":null,"i":"1","p":0,"s":0,"t":0,"x":0}}}"#)
        #expect(try PolygonResponseMapping.quote(from: noPrice, symbol: "XYZ") == .failure(.badResponse("polygon: no trade or day close for XYZ")))
        let noStamp = try snapshot(#"{"status":"OK","ticker":{"ticker":"XYZ","day":{"c":10.5}}}"#)
        #expect(try PolygonResponseMapping.quote(from: noStamp, symbol: "XYZ") == .failure(.badResponse("polygon: no timestamp for XYZ")))
        let noTicker = try snapshot(#"{"status":"OK","request_id":"r"}"#)
        // Not the documented shape: the request failed, nothing is said about the symbol.
        #expect(throws: BrokerError.badResponse("polygon: no ticker in snapshot for XYZ (status OK)")) {
            try PolygonResponseMapping.quote(from: noTicker, symbol: "XYZ")
        }
    }

    @Test func errorStatusesInsideA200StillMeanWhatTheySay() throws {
        let notFound = try PolygonResponseMapping.decodeSnapshot(HTTPResponse(status: 200, body: fixture("not-found.json")))
        #expect(try PolygonResponseMapping.quote(from: notFound, symbol: "ZZZZ") == .failure(.unknownSymbol("ZZZZ")))
        let notEntitled = try PolygonResponseMapping.decodeSnapshot(HTTPResponse(status: 200, body: fixture("error-403.json")))
        #expect(try PolygonResponseMapping.quote(from: notEntitled, symbol: "AAPL") == .failure(.unauthorized(hint: "your Polygon plan does not include this data")))
    }

    @Test func errorBodiesMapToPreciseErrors() throws {
        func error(_ status: Int, _ file: String, headers: [String: String] = [:]) throws -> BrokerError? {
            PolygonResponseMapping.error(for: HTTPResponse(status: status, headers: headers, body: try fixture(file)), symbol: "ZZZZ", credentialHint: hint)
        }
        #expect(try error(401, "error-401.json") == .unauthorized(hint: "check POLYGON_API_KEY"))
        #expect(try error(403, "error-403.json") == .unauthorized(hint: "your Polygon plan does not include this data"))
        #expect(try error(404, "not-found.json") == .unknownSymbol("ZZZZ"))
        #expect(try error(429, "error-429.json") == .rateLimited(retryAfter: nil))
        #expect(try error(429, "error-429.json", headers: ["Retry-After": "12"]) == .rateLimited(retryAfter: 12))
        #expect(try error(200, "snapshot-aapl.json") == nil)
        let errorBody = try JSONDecoder().decode(PolygonErrorBody.self, from: fixture("error-401.json"))
        #expect(errorBody == PolygonErrorBody(status: "ERROR", requestID: "a1f8c2e04b7d9e3f56c1a0b2d4e6f809", error: "Unknown API Key", message: nil))
    }

    @Test func statusesWithoutAPolygonBody() {
        func error(_ status: Int, _ body: String) -> BrokerError? {
            PolygonResponseMapping.error(for: HTTPResponse(status: status, body: Data(body.utf8)), symbol: "ZZZZ", credentialHint: hint)
        }
        #expect(error(400, #"{"status":"ERROR","request_id":"r","error":"API Key was not provided"}"#) == .unauthorized(hint: "check POLYGON_API_KEY"))
        #expect(error(400, #"{"status":"ERROR","request_id":"r","error":"Could not parse the date"}"#)
            == .badResponse(#"HTTP 400: {"status":"ERROR","request_id":"r","error":"Could not parse the date"}"#))
        #expect(error(403, "Forbidden") == .unauthorized(hint: "check POLYGON_API_KEY"))
        #expect(error(404, "<html>nope</html>") == .unknownSymbol("ZZZZ"))
        #expect(error(500, "Internal Server Error") == .server(status: 500))
    }

    @Test func garbageIsABadResponseWithAShortExcerpt() {
        #expect(throws: BrokerError.badResponse("not a Polygon snapshot: <html><body>502 Bad Gateway</body></html>")) {
            try PolygonResponseMapping.decodeSnapshot(HTTPResponse(status: 200, body: Data("<html><body>502 Bad Gateway</body></html>".utf8)))
        }
        let long = Data(("{\"status\":\"OK\",\"ticker\":" + String(repeating: "x", count: 500)).utf8)
        #expect(throws: BrokerError.badResponse("not a Polygon snapshot: {\"status\":\"OK\",\"ticker\":" + String(repeating: "x", count: 56) + "…")) {
            try PolygonResponseMapping.decodeSnapshot(HTTPResponse(status: 200, body: long))
        }
    }
}
