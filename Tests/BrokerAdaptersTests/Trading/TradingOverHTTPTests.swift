import Domain
import Foundation
import Networking
import Testing
import TestSupport
@testable import BrokerAdapters

/// Positions and orders over real HTTP: the live servicer (`SocketRequestServicer`) against the fixture server
/// (Tests/Fixtures/http_fixture_server.py) on each broker's routes.json, so the methods (PATCH, PUT,
/// DELETE), a 204 with no body and the form and JSON bodies are checked as they arrive at a server, from
/// its request log. The time limit only guards against a hung server.
@Suite(.timeLimit(.minutes(1))) struct TradingOverHTTPTests {
    typealias T = TradingTestSupport

    func server(_ broker: String) async throws -> FixtureServer {
        try await FixtureServer.start(root: FixtureServer.fixturesDirectory.appendingPathComponent(broker))
    }

    @Test func alpacaEveryTradingEndpoint() async throws {
        let server = try await server("alpaca")
        let alpaca = AlpacaBroker(
            context: ServiceContext(environment: .sandbox, baseURLOverrides: ["alpaca-trading": server.baseURL], servicer: SocketRequestServicer()),
            credentials: AlpacaCredentials(keyID: AlpacaFixtures.keyID, secretKey: AlpacaFixtures.secretKey))
        let openID = "61e69015-8549-4bfd-b9c3-01e75843f47d"

        #expect(try await alpaca.positions().map(\.symbol) == ["AAPL", "SLM", "SPY"])
        #expect(try await alpaca.orders(status: .open).count == 4)
        let placed = try await alpaca.place(T.request("AAPL", .buy, "10", .limit(exactDecimal("150.25")), clientOrderID: "cb-0101"))
        #expect(placed.id == OrderID("6f8a2b4c-0d1e-4f3a-9b5c-7d8e9f0a1b2c"))
        let replaced = try await alpaca.replace(id: OrderID(openID), T.request("AAPL", .buy, "5", .limit(151), .gtc, clientOrderID: "cb-0103"))
        #expect(replaced.status == .accepted)
        try await alpaca.cancel(id: OrderID(openID))
        await #expect(throws: BrokerError.insufficientBuyingPower("the order needs 48640000, the account has 176531.28 of buying power")) {
            let poor = AlpacaBroker(
                context: ServiceContext(environment: .sandbox, baseURLOverrides: ["alpaca-trading": server.baseURL], servicer: SocketRequestServicer()),
                credentials: AlpacaCredentials(keyID: "poor-key", secretKey: AlpacaFixtures.secretKey))
            _ = try await poor.place(T.request("AAPL", .buy, "100000", .market, clientOrderID: "cb-9"))
        }

        let log = try await server.requestLog()
        #expect(log.map { "\($0.method) \($0.path)" } == [
            "GET /v2/positions", "GET /v2/orders", "POST /v2/orders", "PATCH /v2/orders/\(openID)", "DELETE /v2/orders/\(openID)",
            "POST /v2/orders",
        ])
        #expect(log[2].body == #"{"symbol":"AAPL","qty":"10","side":"buy","type":"limit","time_in_force":"day","limit_price":"150.25","client_order_id":"cb-0101"}"#)
        #expect(log[2].header("Content-Type") == "application/json")
        #expect(log[3].body == #"{"qty":"5","time_in_force":"gtc","limit_price":"151","client_order_id":"cb-0103"}"#)
        #expect(log[4].body == "")
        await server.stop()
    }

    @Test func tradierEveryTradingEndpoint() async throws {
        let server = try await server("tradier")
        let tradier = TradierBroker(
            context: ServiceContext(environment: .sandbox, baseURLOverrides: ["tradier": server.baseURL], servicer: SocketRequestServicer()),
            credentials: TradierCredentials(token: "test-token"))

        #expect(try await tradier.positions().map(\.symbol) == ["AAPL", "AMZN", "IBM", "BRK.B", "SPY"])
        #expect(try await tradier.orders(status: .all).count == 7)
        let placed = try await tradier.place(T.request("BRK.B", .sellShort, "7", .stop(exactDecimal("0.1")), .gtc, clientOrderID: "cb-0101"))
        #expect(placed.id == OrderID("257459"))
        _ = try await tradier.replace(id: OrderID("228175"), T.request("AAPL", .buy, "50", .limit(exactDecimal("150.5")), clientOrderID: "cb-0201"))
        try await tradier.cancel(id: OrderID("228175"))
        let empty = TradierBroker(
            context: ServiceContext(environment: .sandbox, baseURLOverrides: ["tradier": server.baseURL], servicer: SocketRequestServicer()),
            credentials: TradierCredentials(token: "test-token"), accountID: "VA000001")
        #expect(try await empty.positions().isEmpty)

        let log = try await server.requestLog()
        let trading = log.filter { $0.path != "/v1/user/profile" }
        #expect(trading.map { "\($0.method) \($0.path)" } == [
            "GET /v1/accounts/6YA05708/positions", "GET /v1/accounts/6YA05708/orders", "POST /v1/accounts/6YA05708/orders",
            "GET /v1/accounts/6YA05708/orders/228175", "PUT /v1/accounts/6YA05708/orders/228175",
            "DELETE /v1/accounts/6YA05708/orders/228175", "GET /v1/accounts/VA000001/positions",
        ])
        #expect(trading[2].body == "class=equity&symbol=BRK%2FB&side=sell_short&quantity=7&type=stop&duration=gtc&stop=0.1&tag=cb-0101")
        #expect(trading[2].header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(trading[4].body == "type=limit&duration=day&price=150.5")
        #expect(trading[5].body == "")
        await server.stop()
    }
}
