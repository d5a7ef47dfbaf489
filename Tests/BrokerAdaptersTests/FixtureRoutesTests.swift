import Domain
import Foundation
import Networking
import Testing

/// The in-process routes follow the fixture server's rules (Tests/Fixtures/http_fixture_server.py).
@Suite struct FixtureRoutesTests {
    func request(_ url: String, headers: [String: String] = [:]) -> HTTPRequest {
        var request = HTTPRequest(url: URL(string: url)!)
        for (name, value) in headers { request.headerFields[name] = value }
        return request
    }

    @Test func firstMatchingRouteAnswersAndNoMatchIs404() throws {
        let routes = try FixtureRoutes.load(broker: "selftest")
        let authorized = ["Authorization": "Bearer test-token", "accept": "application/json"]
        #expect(routes.route(for: request("http://h/v1/quotes?symbols=AAPL,MSFT&x=1", headers: authorized))?.name == "quotes-authorized")
        #expect(routes.route(for: request("http://h/v1/quotes?symbols=AAPL,MSFT"))?.name == "quotes-unauthorized")
        #expect(routes.route(for: request("http://h/v1/quotes?symbols=AAPL", headers: authorized))?.name == "quotes-unauthorized")
        let missing = try routes.answer(request("http://h/v2/none"))
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self) == #"{"error":"no fixture route"}"#)
    }

    @Test func dropThrowsAndTruncateHalvesTheBody() throws {
        let routes = try FixtureRoutes.load(broker: "selftest")
        #expect(throws: BrokerError.network("connection closed before a response (fixture route drop)")) {
            try routes.answer(request("http://h/v1/drop"))
        }
        let whole = try FixtureFiles.data("selftest", "quotes.json")
        #expect(try routes.answer(request("http://h/v1/truncate")).body == whole.prefix(whole.count / 2))
        #expect(try routes.answer(request("http://h/v1/slow")).body == whole)
    }

    @Test func queryValuesMatchAsTheServerMatchesThem() throws {
        let routes = try FixtureRoutes.parse(Data(#"""
            {"routes": [
              {"name": "one", "path": "/q", "query": {"s": "A"}},
              {"name": "several", "path": "/q", "query": {"s": ["B", "C"]}},
              {"name": "encoded", "path": "/a%2Fb", "status": 201}
            ]}
            """#.utf8), broker: "selftest")
        #expect(routes.route(for: request("http://h/q?s=Z&s=A"))?.name == "one")
        #expect(routes.route(for: request("http://h/q?s=B&s=C"))?.name == "several")
        #expect(routes.route(for: request("http://h/q?s=C&s=B")) == nil)
        #expect(routes.route(for: request("http://h/q?s=B")) == nil)
        #expect(routes.route(for: request("http://h/a%2Fb"))?.status == 201)
        #expect(routes.routes.map(\.method) == ["GET", "GET", "GET"])
        #expect(routes.routes.map(\.status) == [200, 200, 201])
    }
}
