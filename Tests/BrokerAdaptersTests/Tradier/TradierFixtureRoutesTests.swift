import BrokerAdapters
import Domain
import Foundation
import Networking
import Testing

/// routes.json is shared with the fixture server: these check that it is well-formed and that the
/// factory's requests land on the routes meant for them.
@Suite struct TradierFixtureRoutesTests {
    let factory = TradierRequestFactory(
        baseURL: .success(URL(string: "http://127.0.0.1:8123")!), credentials: TradierCredentials(token: "test-token"))

    @Test func everyRouteIsComplete() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: TradierFixtures.data("routes.json")) as? [String: Any])
        #expect((object["//"] as? String)?.contains("XML") == true)
        let routes = try #require(object["routes"] as? [[String: Any]])
        #expect(routes.count == 52)
        for route in routes {
            let name = route["name"] as? String ?? "?"
            let path = route["path"] as? String ?? ""
            // Reads are GETs; the stream session (reference §1.5) and order changes (§8.2) are not.
            let isOrderChange = path.hasPrefix("/v1/accounts/") && path.contains("/orders")
            let methods: Set<String> = path == "/v1/markets/events/session" ? ["POST"] : isOrderChange ? ["GET", "POST", "PUT", "DELETE"] : ["GET"]
            #expect(methods.contains(route["method"] as? String ?? ""), "\(name)")
            #expect((route["path"] as? String)?.hasPrefix("/v1/") == true, "\(name)")
            #expect(route["status"] is Int, "\(name)")
            if let file = route["bodyFile"] as? String {
                #expect(FileManager.default.fileExists(atPath: TradierFixtures.directory.appendingPathComponent(file).path), "\(name)")
            }
        }
    }

    @Test func everyFixtureIsServedAndIsCompactJSON() throws {
        let routes = try FixtureRoutes.load(broker: "tradier")
        let object = try #require(try JSONSerialization.jsonObject(with: TradierFixtures.data("routes.json")) as? [String: Any])
        // Bodies a route answers with in turn (`responses`, see http_fixture_server.py) are served too.
        let inTurn = Set(((object["routes"] as? [[String: Any]]) ?? []).flatMap { route in
            ((route["responses"] as? [[String: Any]]) ?? []).compactMap { $0["bodyFile"] as? String }
        })
        let files = try FileManager.default.contentsOfDirectory(atPath: TradierFixtures.directory.path)
            .filter { $0 != "routes.json" && $0 != "README.md" }
        #expect(files.count == 27)
        for file in files {
            let body = try TradierFixtures.data(file)
            #expect(routes.routes.contains { $0.body == body } || inTurn.contains(file), "\(file) is served by no route")
            #expect(!body.contains(UInt8(ascii: "\n")), "\(file) should be one line, as the API sends it")
            #expect((try? JSONSerialization.jsonObject(with: body)) != nil, "\(file)")
        }
    }

    @Test func factoryRequestsFindTheirRoutes() throws {
        let routes = try FixtureRoutes.load(broker: "tradier")
        func routeName(_ request: Result<Request<TradierQuotesEnvelope>, RequestConstructionError>) throws -> String? {
            routes.route(for: try request.get().httpRequest)?.name
        }
        #expect(try routeName(factory.quotes(["AAPL"])) == "quotes-one")
        #expect(try routeName(factory.quotes(["AAPL", "MSFT"])) == "quotes-two")
        #expect(try routeName(factory.quotes(["AAPL", "ZZZQ"])) == "quotes-unmatched-one")
        #expect(try routeName(factory.quotes(["ZZZQ", "XXYYZ"])) == "quotes-all-unknown")
        #expect(try routeName(factory.quotes(["AAPL", "ZVZZT"])) == "quotes-nulls")
        #expect(try routeName(factory.quotes(["BRK.B"])) == "quotes-brk")
        #expect(try routeName(factory.quotes(["IBM"])) == "no fixture for this query /v1/markets/quotes")
        #expect(routes.route(for: try factory.profile().get().httpRequest)?.name == "profile")
        #expect(routes.route(for: try factory.balances(accountID: "6YA05708").get().httpRequest)?.name == "balances-margin")
        #expect(routes.route(for: try factory.streamSession().get().httpRequest)?.name == "stream-session")
        #expect(routes.route(for: try factory.positions(accountID: "6YA05708").get().httpRequest)?.name == "positions")
        #expect(routes.route(for: try factory.positions(accountID: "VA000001").get().httpRequest)?.name == "positions-null: none is the string \"null\"")
        #expect(routes.route(for: try factory.orders(accountID: "6YA05708").get().httpRequest)?.name == "orders")
        #expect(routes.route(for: try factory.order(accountID: "6YA05708", id: OrderID("228175")).get().httpRequest)?.name == "order 228175")
        let order = try OrderRequest(symbol: "AAPL", side: .buy, quantity: 1, type: .market, timeInForce: .day, clientOrderID: ClientOrderID("c-1"))
        #expect(routes.route(for: try factory.placeOrder(accountID: "6YA05708", order).get().httpRequest)?.name == "place-order")
        #expect(routes.route(for: try factory.modifyOrder(accountID: "6YA05708", id: OrderID("228175"), order).get().httpRequest)?.name == "modify-order 228175")
        #expect(routes.route(for: try factory.cancelOrder(accountID: "6YA05708", id: OrderID("228175")).get().httpRequest)?.name == "cancel-order 228175")
    }

    @Test func otherTokensGetThePlainText401() throws {
        let routes = try FixtureRoutes.load(broker: "tradier")
        let wrong = TradierRequestFactory(baseURL: .success(URL(string: "http://127.0.0.1:8123")!), credentials: TradierCredentials(token: "other"))
        for request in [try wrong.quotes(["AAPL"]).get().httpRequest, try wrong.profile().get().httpRequest, try wrong.streamSession().get().httpRequest] {
            let response = try routes.answer(request)
            #expect(response.status == 401)
            #expect(String(decoding: response.body, as: UTF8.self) == "Invalid Access Token")
            #expect(response.header("content-type") == "text/plain")
        }
    }

    /// The real API answers XML without `Accept: application/json` (reference §1.1); so does the fixture.
    @Test func withoutAcceptTheAnswerIsXMLAndUndecodable() throws {
        let routes = try FixtureRoutes.load(broker: "tradier")
        let request = try factory.quotes(["AAPL"]).get()
        var bare = request.httpRequest
        bare.headerFields["Accept"] = nil
        let response = try routes.answer(bare)
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/xml")
        #expect(throws: BrokerError.self) { try request.decode(response) }
    }

    @Test func rateLimitRouteCarriesBothHeaders() throws {
        let routes = try FixtureRoutes.load(broker: "tradier")
        let response = try routes.answer(try factory.quotes(["LIMIT"]).get().httpRequest)
        #expect(response.status == 429)
        #expect(response.header("X-Ratelimit-Expiry") == "1731528960000")
        #expect(response.header("Retry-After") == "30")
    }
}
