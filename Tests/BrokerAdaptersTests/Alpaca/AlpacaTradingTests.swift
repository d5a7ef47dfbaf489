import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

/// Alpaca's positions and orders against routes.json (Tests/Fixtures/alpaca, README.md there), through the
/// in-process servicer that answers as the fixture server does. Paper trading unless a test says otherwise.
@Suite struct AlpacaTradingTests {
    typealias T = TradingTestSupport
    static let now = Date(timeIntervalSince1970: 1_731_528_960)
    let keysHint = "check APCA_API_KEY_ID and APCA_API_SECRET_KEY"
    let openID = "61e69015-8549-4bfd-b9c3-01e75843f47d"

    func broker(
        _ servicer: FixtureRoutesServicer, key: String = AlpacaFixtures.keyID, environment: ServiceEnvironment = .sandbox,
        overrides: [String: URL] = [:], liveTrading: LiveTrading = .notAllowed
    ) -> AlpacaBroker {
        AlpacaBroker(
            context: ServiceContext(environment: environment, baseURLOverrides: overrides, servicer: servicer),
            credentials: AlpacaCredentials(keyID: key, secretKey: AlpacaFixtures.secretKey), liveTrading: liveTrading, now: { Self.now })
    }

    func routes() throws -> FixtureRoutesServicer { try FixtureRoutesServicer(broker: "alpaca") }

    // MARK: Positions

    @Test func positionsLongShortAndFractionalExactly() async throws {
        let servicer = try routes()
        let positions = try await broker(servicer).positions()
        #expect(servicer.sent.map(\.url) == ["https://paper-api.alpaca.markets/v2/positions"])
        #expect(servicer.requests.first?.method == "GET")
        #expect(positions == [
            Position(
                brokerID: "alpaca", symbol: "AAPL", quantity: 4, averageCost: exactDecimal("172.08"), costBasis: exactDecimal("688.32"),
                lastPrice: exactDecimal("228.06"), marketValue: exactDecimal("912.24"), unrealizedPnL: exactDecimal("223.92"),
                // 0.3253138075313808 as percent, rounded once: 32.53138075|313808.
                unrealizedPnLPercent: exactDecimal("32.53138075"), todayPnL: exactDecimal("-5.36")),
            Position(
                brokerID: "alpaca", symbol: "SLM", quantity: -2478, averageCost: exactDecimal("8.36"), costBasis: exactDecimal("-20716.08"),
                lastPrice: exactDecimal("8.91"), marketValue: exactDecimal("-22078.98"), unrealizedPnL: exactDecimal("-1362.9"),
                unrealizedPnLPercent: exactDecimal("-6.57894737"), todayPnL: exactDecimal("-99.12")),
            // More decimals than 8 (Alpaca's averages and fractional costs) are rounded half to even, once.
            Position(
                brokerID: "alpaca", symbol: "SPY", quantity: exactDecimal("0.5123"), averageCost: exactDecimal("587.12345679"),
                costBasis: exactDecimal("300.78334691"), lastPrice: exactDecimal("590.02"), marketValue: exactDecimal("302.267246"),
                unrealizedPnL: exactDecimal("1.48389909"), unrealizedPnLPercent: exactDecimal("0.49334483"), todayPnL: exactDecimal("0.655744")),
        ])
        #expect(positions[1].isShort)
        // The short's P&L by the domain's own rule agrees with Alpaca's: it lost as the price rose.
        #expect(try positions[1].valued(at: exactDecimal("8.91")).unrealizedPnL == exactDecimal("-1362.9"))
    }

    @Test func aShortSentAsMagnitudesTakesItsSignsFromTheSide() throws {
        let body = #"[{"symbol":"SLM","asset_class":"us_equity","avg_entry_price":"8.36","qty":"2478","side":"short","market_value":"22078.98","cost_basis":"20716.08","unrealized_pl":"-1362.9","unrealized_plpc":"-6.57894736842105e-2","unrealized_intraday_pl":null,"current_price":"8.91"}]"#
        let wire = try JSONDecoder().decode([AlpacaPosition].self, from: Data(body.utf8))
        let position = try wire[0].position(brokerID: "alpaca")
        #expect(position.quantity == -2478)
        #expect(position.costBasis == exactDecimal("-20716.08"))
        #expect(position.marketValue == exactDecimal("-22078.98"))
        #expect(position.unrealizedPnLPercent == exactDecimal("-6.57894737"))
        #expect(position.todayPnL == nil)
    }

    @Test func noPositions() async throws {
        #expect(try await broker(routes(), key: "empty-key").positions().isEmpty)
    }

    @Test func positionsThatAreNotWhatAlpacaDocumentsSayWhere() async throws {
        let garbageKey = broker(try routes(), key: "garbage-key")
        let garbage = await T.thrown { () async throws(BrokerError) in try await garbageKey.positions() }
        #expect(garbage == .badResponse("alpaca: unexpected response: not JSON; body starts '<html><body><h1>502 Bad Gateway</h1></body></html> '"))

        let wordy = FixtureRoutesServicer.answering(status: 200, body: #"[{"symbol":"AAPL","qty":"ten","avg_entry_price":"1","cost_basis":"10"}]"#)
        let error = await T.thrown { () async throws(BrokerError) in try await broker(wordy).positions() }
        guard case .badResponse(let detail)? = error else {
            Issue.record("expected a bad response, got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("alpaca: unexpected response: invalid value at [0].qty: \"ten\" is not a decimal"))

        let sideways = FixtureRoutesServicer.answering(status: 200, body: #"[{"symbol":"AAPL","qty":"1","side":"flat","avg_entry_price":"1","cost_basis":"1"}]"#)
        #expect(await T.thrown { () async throws(BrokerError) in try await broker(sideways).positions() }
            == .badResponse(#"alpaca: position AAPL has side "flat", not long or short"#))
    }

    @Test func rejectedKeysForPositionsAndOrders() async throws {
        let alpaca = try broker(routes(), key: "wrong-key")
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.positions() } == .unauthorized(hint: keysHint))
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.orders(status: .all) } == .unauthorized(hint: keysHint))
        let order = T.request("AAPL", .buy, "1", .market, clientOrderID: "cb-1")
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.place(order) } == .unauthorized(hint: keysHint))
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.cancel(id: OrderID(openID)) } == .unauthorized(hint: keysHint))
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.replace(id: OrderID(openID), order) } == .unauthorized(hint: keysHint))
    }

    // MARK: Orders

    @Test func openOrdersOfEveryTypeNewestFirst() async throws {
        let servicer = try routes()
        let orders = try await broker(servicer).orders(status: .open)
        #expect(servicer.sent.map(\.url) == ["https://paper-api.alpaca.markets/v2/orders?status=open&limit=500&direction=desc"])
        #expect(orders.map(\.id.rawValue) == [
            "c1f7a4a2-63a0-4e39-9a0e-0d4c3ab1e5f2", "7d4b0b7e-1f55-4c1e-8e8f-6f0a3f6a9b21",
            "2f2c4a8e-9c61-4ad5-9d0a-2b2f1c7d8e90", openID,
        ])
        #expect(orders[3] == Order(
            request: T.request("AAPL", .buy, "10", .limit(exactDecimal("150.25")), .day, clientOrderID: "cb-0001"), id: OrderID(openID),
            status: .accepted, createdAt: T.date("2024-11-13T15:02:11.942282Z"), updatedAt: T.date("2024-11-13T15:02:11.944125Z")))
        #expect(orders[2] == Order(
            request: T.request("SPY", .sell, "20", .stopLimit(stop: 590, limit: exactDecimal("589.5")), .gtc, clientOrderID: "cb-0002"),
            id: OrderID("2f2c4a8e-9c61-4ad5-9d0a-2b2f1c7d8e90"), status: .partiallyFilled, filledQuantity: 7,
            averageFillPrice: exactDecimal("589.9942857"), createdAt: T.date("2024-11-13T15:05:00.1Z"), updatedAt: T.date("2024-11-13T15:31:47.20145Z")))
        // `position_intent` is the only word that tells a short sale and a cover from a sale and a buy.
        #expect(orders[1].request == T.request("TSLA", .sellShort, "5", .stop(exactDecimal("0.1")), clientOrderID: "cb-0003"))
        #expect(orders[1].status == .accepted)
        #expect(orders[0].request == T.request("MSFT", .buyToCover, "1", .market, clientOrderID: "cb-0004"))
        #expect(orders[0].status == .pending)
        #expect(orders.allSatisfy { $0.status.isOpen })
    }

    @Test func closedOrdersEveryOutcomeAndOnlyWhatTheAppCanShow() async throws {
        let orders = try await broker(routes()).orders(status: .closed)
        // The crypto order and the order by dollar amount are left out.
        #expect(orders.map(\.status) == [.filled, .cancelled, .expired, .rejected(reason: AlpacaOrder.rejectionWithoutReason), .replaced])
        let filled = orders[0]
        #expect(filled.request == T.request("SPY", .buy, "10", .limit(exactDecimal("362.4")), clientOrderID: "aad67d06-380d-4221-9eaa-168d6357ac42"))
        #expect(filled.filledQuantity == 10)
        #expect(filled.averageFillPrice == exactDecimal("361.92"))
        // Nine fraction digits, kept to the nanosecond the date can hold.
        #expect(abs(filled.createdAt.timeIntervalSince1970 - 1_731_425_313.474853941) < 1e-6)
        #expect(orders[1].request.type == .limit(exactDecimal("0.5")))
        #expect(orders[1].request.timeInForce == .gtc)
        #expect(orders[1].averageFillPrice == nil)
        #expect(orders[3].rejectReason == AlpacaOrder.rejectionWithoutReason)
    }

    @Test func allOrders() async throws {
        let servicer = try routes()
        let orders = try await broker(servicer).orders(status: .all)
        #expect(servicer.sent.map(\.url) == ["https://paper-api.alpaca.markets/v2/orders?status=all&limit=500&direction=desc"])
        #expect(orders.count == 9)
        #expect(orders.filter(\.status.isOpen).count == 4)
        #expect(zip(orders, orders.dropFirst()).allSatisfy { $0.createdAt >= $1.createdAt })
        #expect(try await broker(routes(), key: "empty-key").orders(status: .all).isEmpty)
    }

    @Test(arguments: [
        ("new", "0", OrderStatus.accepted), ("accepted", "0", .accepted), ("pending_new", "0", .pending),
        ("partially_filled", "3", .partiallyFilled), ("done_for_day", "3", .partiallyFilled), ("done_for_day", "0", .accepted),
        ("pending_cancel", "0", .accepted), ("pending_replace", "2", .partiallyFilled), ("held", "0", .accepted),
        ("stopped", "0", .accepted), ("suspended", "0", .accepted), ("accepted_for_bidding", "0", .accepted),
        ("calculated", "10", .filled), ("calculated", "4", .partiallyFilled), ("filled", "10", .filled),
        ("canceled", "4", .cancelled), ("expired", "0", .expired), ("replaced", "0", .replaced),
        ("rejected", "0", .rejected(reason: AlpacaOrder.rejectionWithoutReason)),
    ])
    func everyAlpacaStatus(_ status: String, _ filled: String, _ expected: OrderStatus) throws {
        let body = #"{"id":"o-1","client_order_id":"c","symbol":"AAPL","asset_class":"us_equity","qty":"10","filled_qty":"\#(filled)","filled_avg_price":"1.5","type":"market","side":"buy","time_in_force":"day","limit_price":null,"stop_price":null,"status":"\#(status)","created_at":"2024-11-13T15:00:00Z","updated_at":null}"#
        let order = try #require(try JSONDecoder().decode(AlpacaOrder.self, from: Data(body.utf8)).order())
        #expect(order.status == expected)
        #expect(order.averageFillPrice == (filled == "0" ? nil : exactDecimal("1.5")))
        #expect(order.updatedAt == order.createdAt)
    }

    @Test func ordersThatAreNotWhatAlpacaDocumentsSayWhich() async throws {
        func error(_ order: String) async -> BrokerError? {
            let servicer = FixtureRoutesServicer.answering(status: 200, body: "[\(order)]")
            return await T.thrown { () async throws(BrokerError) in try await broker(servicer).orders(status: .all) }
        }
        let base = #""id":"o-9","symbol":"AAPL","qty":"1","side":"buy","time_in_force":"day","created_at":"2024-11-13T15:00:00Z""#
        #expect(await error(#"{\#(base),"type":"limit","limit_price":null,"status":"new"}"#)
            == .badResponse("alpaca: order o-9: a limit order without limit_price"))
        #expect(await error(#"{\#(base),"type":"market","status":"teleported"}"#)
            == .badResponse(#"alpaca: order o-9: status "teleported" is unknown"#))
        #expect(await error(#"{\#(base),"type":"iceberg","status":"new"}"#)
            == .badResponse(#"alpaca: order o-9: type "iceberg" is unknown"#))
        #expect(await error(#"{"id":"o-9","symbol":"AAPL","qty":"1","side":"buy","time_in_force":"day","created_at":"13/11/2024","type":"market","status":"new"}"#)
            == .badResponse(#"alpaca: order o-9: created_at "13/11/2024" is not RFC 3339"#))
        #expect(await error(#"{"id":"o-9","symbol":"A B","qty":"1","side":"buy","time_in_force":"day","created_at":"2024-11-13T15:00:00Z","type":"market","status":"new"}"#)
            == .badResponse("alpaca: order o-9: A B contains a space; use letters, digits, . - / ^"))
    }

    // MARK: Placing

    @Test func placingSendsTheDocumentedJSONAndReturnsTheOrderAsTaken() async throws {
        let servicer = try routes()
        let order = T.request("AAPL", .buy, "10", .limit(exactDecimal("150.25")), .day, clientOrderID: "cb-0101")
        let placed = try await broker(servicer).place(order)
        let sent = try #require(servicer.requests.first)
        #expect(servicer.requests.count == 1)
        #expect(sent.method == "POST")
        #expect(sent.url.absoluteString == "https://paper-api.alpaca.markets/v2/orders")
        #expect(sent.headerFields["Content-Type"] == "application/json")
        #expect(sent.headerFields["Accept"] == "application/json")
        #expect(sent.headerFields["APCA-API-KEY-ID"] == AlpacaFixtures.keyID)
        #expect(servicer.sent.first?.secretNames == ["APCA-API-KEY-ID", "APCA-API-SECRET-KEY"])
        #expect(T.body(sent) == #"{"symbol":"AAPL","qty":"10","side":"buy","type":"limit","time_in_force":"day","limit_price":"150.25","client_order_id":"cb-0101"}"#)
        #expect(placed == Order(
            request: order, id: OrderID("6f8a2b4c-0d1e-4f3a-9b5c-7d8e9f0a1b2c"), status: .pending,
            createdAt: T.date("2024-11-13T16:00:00.123456Z"), updatedAt: T.date("2024-11-13T16:00:00.125Z")))
    }

    @Test func aShortSaleIsSentAsASellAndComesBackAsTheShortSaleAskedFor() async throws {
        let servicer = try routes()
        let order = T.request("TSLA", .sellShort, "5", .stopLimit(stop: 242, limit: exactDecimal("241.5")), .gtc, clientOrderID: "cb-0102")
        let placed = try await broker(servicer, key: "short-key").place(order)
        #expect(T.body(servicer.requests.first)
            == #"{"symbol":"TSLA","qty":"5","side":"sell","type":"stop_limit","time_in_force":"gtc","limit_price":"241.5","stop_price":"242","client_order_id":"cb-0102"}"#)
        #expect(placed.request == order)
        #expect(placed.status == .accepted)
    }

    @Test(arguments: [
        (OrderSide.buy, "1", OrderType.market, TimeInForce.day, "c-1",
         #"{"symbol":"MSFT","qty":"1","side":"buy","type":"market","time_in_force":"day","client_order_id":"c-1"}"#),
        (.buyToCover, "0.5123", .stop(exactDecimal("0.1")), .gtc, "c-2",
         #"{"symbol":"MSFT","qty":"0.5123","side":"buy","type":"stop","time_in_force":"gtc","stop_price":"0.1","client_order_id":"c-2"}"#),
        (.sell, "100", .limit(exactDecimal("0.0001")), .day, "",
         #"{"symbol":"MSFT","qty":"100","side":"sell","type":"limit","time_in_force":"day","limit_price":"0.0001"}"#),
        (.sell, "3", .limit(exactDecimal("1e-8")), .day, "\"quoted\"\\",
         #"{"symbol":"MSFT","qty":"3","side":"sell","type":"limit","time_in_force":"day","limit_price":"0.00000001","client_order_id":"\"quoted\"\\"}"#),
    ])
    func orderBodiesByteForByte(_ side: OrderSide, _ quantity: String, _ type: OrderType, _ timeInForce: TimeInForce, _ client: String, _ json: String) throws {
        let body = try AlpacaOrderBody.place(T.request("MSFT", side, quantity, type, timeInForce, clientOrderID: client)).get()
        #expect(String(decoding: body, as: UTF8.self) == json)
        #expect((try? JSONSerialization.jsonObject(with: body)) != nil)
    }

    @Test func refusalsOfTheOrderItself() async throws {
        let order = T.request("AAPL", .buy, "100000", .market, clientOrderID: "cb-9")
        func placing(_ key: String) async throws -> BrokerError? {
            let alpaca = broker(try routes(), key: key)
            return await T.thrown { () async throws(BrokerError) in try await alpaca.place(order) }
        }
        #expect(try await placing("poor-key") == .insufficientBuyingPower("the order needs 48640000, the account has 176531.28 of buying power"))
        #expect(try await placing("qty-key") == .orderRejected(reason: "insufficient qty available for order (requested: 10, available: 0)"))
        #expect(try await placing("reject-key") == .orderRejected(reason: "sub-penny increment does not fulfill minimum pricing criteria"))
        // A 403 about the keys, not the order, is still a key problem.
        #expect(try await placing("forbidden-key") == .unauthorized(hint: keysHint))
        #expect(try await placing("garbage-key")
            == .badResponse("alpaca: unexpected response: not JSON; body starts '<html><body><h1>502 Bad Gateway</h1></body></html> '"))
        #expect(try await placing("poor-key")?.isPermanent == true)
    }

    @Test func buyingPowerWithoutFiguresKeepsAlpacasWords() async throws {
        let servicer = FixtureRoutesServicer.answering(status: 403, body: #"{"code":40310000,"message":"insufficient day trading buying power"}"#)
        let error = await T.thrown { () async throws(BrokerError) in
            try await broker(servicer).place(T.request("AAPL", .buy, "1", .market, clientOrderID: "c"))
        }
        #expect(error == .insufficientBuyingPower("insufficient day trading buying power"))
    }

    @Test func aClientOrderIDAlpacaWouldRefuseIsNeverSent() async throws {
        let servicer = try routes()
        let long = String(repeating: "x", count: 49)
        let error = await T.thrown { () async throws(BrokerError) in
            try await broker(servicer).place(T.request("AAPL", .buy, "1", .market, clientOrderID: long))
        }
        #expect(error == .orderRejected(reason: "client order id \"\(long)\" has 49 characters; Alpaca takes at most 48"))
        #expect(servicer.requests.isEmpty)
    }

    // MARK: Replacing and cancelling

    @Test func replacingPatchesTheOrderAndReturnsTheNewOne() async throws {
        let servicer = try routes()
        let order = T.request("AAPL", .buy, "5", .limit(151), .gtc, clientOrderID: "cb-0103")
        let replaced = try await broker(servicer).replace(id: OrderID(openID), order)
        let sent = try #require(servicer.requests.first)
        #expect(sent.method == "PATCH")
        #expect(sent.url.absoluteString == "https://paper-api.alpaca.markets/v2/orders/\(openID)")
        #expect(sent.headerFields["Content-Type"] == "application/json")
        #expect(T.body(sent) == #"{"qty":"5","time_in_force":"gtc","limit_price":"151","client_order_id":"cb-0103"}"#)
        #expect(replaced == Order(
            request: order, id: OrderID("6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d"), status: .accepted,
            createdAt: T.date("2024-11-13T16:05:00Z"), updatedAt: T.date("2024-11-13T16:05:00.5Z")))

        let rejecting = broker(try routes(), key: "reject-key")
        let refused = await T.thrown { () async throws(BrokerError) in try await rejecting.replace(id: OrderID(openID), order) }
        #expect(refused == .orderRejected(reason: "sub-penny increment does not fulfill minimum pricing criteria"))
    }

    @Test func cancelling() async throws {
        let servicer = try routes()
        let alpaca = broker(servicer)
        try await alpaca.cancel(id: OrderID(openID))
        #expect(servicer.requests.first?.method == "DELETE")
        #expect(servicer.requests.first?.url.absoluteString == "https://paper-api.alpaca.markets/v2/orders/\(openID)")
        #expect(servicer.requests.first?.body == nil)
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.cancel(id: OrderID("596b186f-69b7-423d-afd5-1fe50a3e3182")) }
            == .orderRejected(reason: "order is not cancelable"))
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.cancel(id: OrderID("00000000-0000-4000-8000-000000000000")) }
            == .orderRejected(reason: "order not found"))
    }

    /// `DELETE /v2/orders` cancels every open order of the account: an id that would make that path, or
    /// add a segment, is refused before anything is sent.
    @Test(arguments: ["", ".", ".."])
    func anIdThatIsNotAnOrderIsNeverSent(_ id: String) async throws {
        let servicer = try routes()
        let error = await T.thrown { () async throws(BrokerError) in try await broker(servicer).cancel(id: OrderID(id)) }
        #expect(error == .orderRejected(reason: "order id \"\(id)\" is not one Alpaca issued"))
        let replaced = await T.thrown { () async throws(BrokerError) in
            try await broker(servicer).replace(id: OrderID(id), T.request("AAPL", .buy, "1", .market, clientOrderID: "c"))
        }
        #expect(replaced == error)
        #expect(servicer.requests.isEmpty)
    }

    @Test func anIdIsOnePathSegment() throws {
        #expect(try AlpacaRequestFactory.orderPath(OrderID("a/b;c?d#e")).get() == "/v2/orders/a%2Fb%3Bc%3Fd%23e")
    }

    // MARK: Live trading

    @Test func productionOrdersAreRefusedAndNothingIsSent() async throws {
        let servicer = try routes()
        let alpaca = broker(servicer, environment: .production)
        let order = T.request("AAPL", .buy, "10", .limit(exactDecimal("150.25")), clientOrderID: "cb-0101")
        let refusal = BrokerError.liveTradingNotAllowed(broker: "alpaca")
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.place(order) } == refusal)
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.replace(id: OrderID(openID), order) } == refusal)
        #expect(await T.thrown { () async throws(BrokerError) in try await alpaca.cancel(id: OrderID(openID)) } == refusal)
        #expect(servicer.requests.isEmpty)
        #expect(refusal.description.contains(#""trading": {"allowLive": true}"#))
        #expect(refusal.isPermanent)

        // Reading the live account is not trading.
        #expect(try await alpaca.positions().count == 3)
        #expect(servicer.sent.map(\.url) == ["https://api.alpaca.markets/v2/positions"])
    }

    @Test func aSandboxRunPointedAtTheLiveHostIsStillRefused() async throws {
        let servicer = try routes()
        let alpaca = broker(servicer, overrides: ["alpaca-trading": URL(string: "https://API.alpaca.markets")!])
        let error = await T.thrown { () async throws(BrokerError) in try await alpaca.place(T.request("AAPL", .buy, "1", .market, clientOrderID: "c")) }
        #expect(error == .liveTradingNotAllowed(broker: "alpaca"))
        #expect(servicer.requests.isEmpty)
    }

    @Test func aBadBaseURLOutsideProductionSaysSoRatherThanLiveTrading() async throws {
        let servicer = try routes()
        let alpaca = broker(servicer, overrides: ["alpaca-trading": URL(string: "ftp://example.com")!])
        let error = await T.thrown { () async throws(BrokerError) in try await alpaca.place(T.request("AAPL", .buy, "1", .market, clientOrderID: "c")) }
        #expect(error == .network("bad base URL ftp://example.com; use http(s)://host[:port][/path]"))
        #expect(servicer.requests.isEmpty)
    }

    @Test func liveTradingAllowedSendsToTheLiveAccount() async throws {
        let servicer = try routes()
        let alpaca = broker(servicer, environment: .production, liveTrading: .allowed)
        let placed = try await alpaca.place(T.request("AAPL", .buy, "10", .limit(exactDecimal("150.25")), clientOrderID: "cb-0101"))
        #expect(placed.status == .pending)
        try await alpaca.cancel(id: OrderID(openID))
        #expect(servicer.sent.map(\.url) == ["https://api.alpaca.markets/v2/orders", "https://api.alpaca.markets/v2/orders/\(openID)"])
    }

    // MARK: Secrets

    @Test func orderRefusalsNeverShowAKey() async throws {
        let echo = FixtureRoutesServicer.answering(status: 422, body: #"{"code":42210000,"message":"bad key \#(AlpacaFixtures.secretKey) for \#(AlpacaFixtures.keyID)"}"#)
        let error = await T.thrown { () async throws(BrokerError) in try await broker(echo).place(T.request("AAPL", .buy, "1", .market, clientOrderID: "c")) }
        #expect(error == .orderRejected(reason: "bad key <redacted> for <redacted>"))
        let html = FixtureRoutesServicer.answering(status: 200, body: "<pre>\(AlpacaFixtures.secretKey)</pre>")
        let garbage = await T.thrown { () async throws(BrokerError) in try await broker(html).positions() }
        #expect(garbage?.description.contains("test-sec") == false)
        #expect(garbage?.description.contains("<redacted>") == true)
    }
}
