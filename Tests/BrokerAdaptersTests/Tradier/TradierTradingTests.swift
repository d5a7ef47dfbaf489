import Domain
import Foundation
import Networking
import Testing
@testable import BrokerAdapters

/// Tradier's positions and orders against routes.json (Tests/Fixtures/tradier, README.md there), through
/// the in-process servicer that answers as the fixture server does. The sandbox unless a test says otherwise.
@Suite struct TradierTradingTests {
    typealias T = TradingTestSupport
    static let now = Date(timeIntervalSince1970: 1_731_528_960)
    let tokenHint = "check TRADIER_TOKEN"

    func broker(
        _ servicer: FixtureRoutesServicer, token: String? = "test-token", accountID: String? = nil,
        environment: ServiceEnvironment = .sandbox, overrides: [String: URL] = [:], liveTrading: LiveTrading = .notAllowed
    ) -> TradierBroker {
        TradierBroker(
            context: ServiceContext(environment: environment, baseURLOverrides: overrides, servicer: servicer),
            credentials: TradierCredentials(token: token), accountID: accountID, liveTrading: liveTrading, now: { Self.now })
    }

    func routes() throws -> FixtureRoutesServicer { try FixtureRoutesServicer(broker: "tradier") }

    // MARK: Positions

    @Test func positionsOfTheProfilesOnlyAccount() async throws {
        let servicer = try routes()
        let positions = try await broker(servicer).positions()
        #expect(servicer.sent.map(\.url) == [
            "https://sandbox.tradier.com/v1/user/profile", "https://sandbox.tradier.com/v1/accounts/6YA05708/positions",
        ])
        #expect(positions.map(\.symbol) == ["AAPL", "AMZN", "IBM", "BRK.B", "SPY"])
        #expect(positions[0] == Position(brokerID: "tradier", symbol: "AAPL", quantity: 1, averageCost: exactDecimal("207.01"), costBasis: exactDecimal("207.01")))
        // 1772.54 ÷ 13 = 136.349230769…: rounded once, half to even, to 8 decimals.
        #expect(positions[2] == Position(brokerID: "tradier", symbol: "IBM", quantity: 13, averageCost: exactDecimal("136.34923077"), costBasis: exactDecimal("1772.54")))
        #expect(positions[4] == Position(brokerID: "tradier", symbol: "SPY", quantity: -10, averageCost: exactDecimal("450.125"), costBasis: exactDecimal("-4501.25")))
        #expect(positions[4].isShort)
        // Tradier sends no prices: valuing is the caller's, at a quote's last price.
        #expect(positions.allSatisfy { $0.lastPrice == nil && $0.marketValue == nil })
        #expect(try positions[4].valued(at: 440).unrealizedPnL == exactDecimal("101.25"))
    }

    @Test func aShortsCostTakesTheQuantitysSignWhateverTradierPrints() throws {
        let body = #"{"positions":{"position":{"cost_basis":4501.25,"date_acquired":"2024-11-13T14:45:00.118Z","id":141902,"quantity":-10.00000000,"symbol":"SPY"}}}"#
        let wire = try TradierResponseDecoding.decode(TradierPositionsEnvelope.self, from: HTTPResponse(status: 200, body: Data(body.utf8)))
        let position = try #require(try wire.positionList.first?.position(brokerID: "tradier"))
        #expect(position.costBasis == exactDecimal("-4501.25"))
        #expect(position.averageCost == exactDecimal("450.125"))
    }

    @Test func aSinglePositionIsAnObject() async throws {
        let servicer = try routes()
        let positions = try await broker(servicer, token: "test-token-2", accountID: "6YA05709").positions()
        #expect(servicer.sent.map(\.url) == ["https://sandbox.tradier.com/v1/accounts/6YA05709/positions"])
        #expect(positions == [Position(brokerID: "tradier", symbol: "MSFT", quantity: 3, averageCost: exactDecimal("112.88"), costBasis: exactDecimal("338.64"))])
    }

    @Test func noPositionsIsTheStringNull() async throws {
        #expect(try await broker(routes(), accountID: "VA000001").positions().isEmpty)
        let jsonNull = FixtureRoutesServicer.answering(status: 200, body: #"{"positions":null}"#)
        #expect(try await broker(jsonNull, accountID: "VA000001").positions().isEmpty)
    }

    @Test func garbagePositionsSayWhere() async throws {
        let html = broker(try routes(), accountID: "VA000004")
        #expect(await T.thrown { () async throws(BrokerError) in try await html.positions() }
            == .badResponse("tradier: unexpected response: not JSON; body starts '<html><head><title>502 Bad Gateway</title></head><body><h1>B…'"))
        let wordy = FixtureRoutesServicer.answering(status: 200, body: #"{"positions":{"position":{"cost_basis":"lots","quantity":1,"symbol":"AAPL"}}}"#)
        let error = await T.thrown { () async throws(BrokerError) in try await broker(wordy, accountID: "6YA05708").positions() }
        guard case .badResponse(let detail)? = error else {
            Issue.record("expected a bad response, got \(String(describing: error))")
            return
        }
        #expect(detail.hasPrefix("tradier: unexpected response: invalid value at positions.position.cost_basis: \"lots\" is not a decimal"))
    }

    @Test func aProfileWithSeveralAccountsIsNotGuessed() async throws {
        let servicer = try routes()
        let error = await T.thrown { () async throws(BrokerError) in try await broker(servicer, token: "test-token-2").positions() }
        #expect(error == .badResponse("tradier: the profile lists 2 accounts (6YA05708, 6YA05709); choose the one to trade in (the broker's account setting)"))
        #expect(servicer.sent.map(\.url) == ["https://sandbox.tradier.com/v1/user/profile"])
        let none = FixtureRoutesServicer.answering(status: 200, body: #"{"profile":{"id":"id-new","name":"NEW","account":"null"}}"#)
        #expect(await T.thrown { () async throws(BrokerError) in try await broker(none).orders(status: .all) }
            == .badResponse("tradier: the profile lists no account to trade in"))
    }

    @Test func rejectedTokenForPositionsAndOrders() async throws {
        let tradier = broker(try routes(), token: "nope", accountID: "6YA05708")
        #expect(await T.thrown { () async throws(BrokerError) in try await tradier.positions() } == .unauthorized(hint: tokenHint))
        #expect(await T.thrown { () async throws(BrokerError) in try await tradier.orders(status: .open) } == .unauthorized(hint: tokenHint))
        let order = T.request("AAPL", .buy, "1", .market, clientOrderID: "cb-1")
        #expect(await T.thrown { () async throws(BrokerError) in try await tradier.place(order) } == .unauthorized(hint: tokenHint))
        #expect(await T.thrown { () async throws(BrokerError) in try await tradier.cancel(id: OrderID("228175")) } == .unauthorized(hint: tokenHint))
        let noToken = broker(try routes(), token: nil, accountID: "6YA05708")
        #expect(await T.thrown { () async throws(BrokerError) in try await noToken.positions() } == .unauthorized(hint: "set TRADIER_TOKEN"))
    }

    // MARK: Orders

    @Test func ordersOfEveryStatusAndTypeNewestFirst() async throws {
        let servicer = try routes()
        let all = try await broker(servicer, accountID: "6YA05708").orders(status: .all)
        #expect(servicer.sent.map(\.url) == ["https://sandbox.tradier.com/v1/accounts/6YA05708/orders?includeTags=true"])
        // The option order (class option) is left out.
        #expect(all.map(\.id.rawValue) == ["228177", "228175", "228176", "228181", "228178", "228180", "228179"])
        let byID = Dictionary(uniqueKeysWithValues: all.map { ($0.id.rawValue, $0) })
        #expect(byID["228175"] == Order(
            request: T.request("AAPL", .buy, "50", .limit(exactDecimal("150.25")), .day, clientOrderID: "cb-0201"), id: OrderID("228175"),
            status: .accepted, createdAt: T.date("2024-11-13T15:02:29.682Z"), updatedAt: T.date("2024-11-13T15:02:29.690Z")))
        #expect(byID["228176"] == Order(
            request: T.request("SPY", .sellShort, "10", .market, clientOrderID: "cb-0202"), id: OrderID("228176"), status: .filled,
            filledQuantity: 10, averageFillPrice: exactDecimal("450.125"),
            createdAt: T.date("2024-11-13T14:45:00.100Z"), updatedAt: T.date("2024-11-13T14:45:00.118Z")))
        #expect(byID["228177"] == Order(
            request: T.request("BRK.B", .sell, "7", .stopLimit(stop: 415, limit: exactDecimal("414.5")), .gtc, clientOrderID: ""),
            id: OrderID("228177"), status: .partiallyFilled, filledQuantity: 3, averageFillPrice: exactDecimal("414.75"),
            createdAt: T.date("2024-11-13T15:10:00.000Z"), updatedAt: T.date("2024-11-13T15:31:07.412Z")))
        // A pre-market order ends with its session: a day order here. 0.1 is read from the number's digits.
        #expect(byID["228178"]?.request == T.request("SNDL", .buyToCover, "100", .stop(exactDecimal("0.1")), .day, clientOrderID: "cb-0204"))
        #expect(byID["228178"]?.status == .pending)
        #expect(byID["228179"]?.status == .cancelled)
        #expect(byID["228180"]?.status == .expired)
        #expect(byID["228181"]?.status == .rejected(reason: "Order rejected: exceeds the account's buying power"))
        #expect(byID["228181"]?.averageFillPrice == nil)

        let open = try await broker(try routes(), accountID: "6YA05708").orders(status: .open)
        #expect(open.map(\.id.rawValue) == ["228177", "228175", "228178"])
        let closed = try await broker(try routes(), accountID: "6YA05708").orders(status: .closed)
        #expect(closed.map(\.id.rawValue) == ["228176", "228181", "228180", "228179"])
    }

    @Test func aSingleOrderIsAnObjectAndNoneIsTheStringNull() async throws {
        let one = try await broker(try routes(), token: "test-token-2", accountID: "6YA05709").orders(status: .all)
        #expect(one.map(\.request) == [T.request("MSFT", .sell, "3", .limit(exactDecimal("431.5")), clientOrderID: "cb-0301")])
        #expect(try await broker(routes(), accountID: "VA000001").orders(status: .all).isEmpty)
    }

    /// Tradier writes prices as JSON numbers; each is read from its digits, so 0.1, 150.25 and 1e-8 arrive
    /// exactly (a `Double` holds neither of the first two), and a long tail of zeros changes nothing.
    @Test(arguments: [("0.1", "0.1"), ("150.25", "150.25"), ("1e-8", "0.00000001"), ("150.250000000000000000", "150.25"), ("1.5E2", "150")])
    func pricesAreReadFromTheNumbersDigits(_ written: String, _ exact: String) throws {
        let body = #"{"order":{"id":1,"type":"limit","symbol":"AAPL","side":"buy","quantity":10.00000000,"status":"open","duration":"day","price":\#(written),"avg_fill_price":0.00000000,"exec_quantity":0.00000000,"create_date":"2024-11-13T15:00:00.000Z","transaction_date":"2024-11-13T15:00:00.000Z","class":"equity"}}"#
        let wire = try TradierResponseDecoding.decode(TradierOrderEnvelope.self, from: HTTPResponse(status: 200, body: Data(body.utf8)))
        #expect(try wire.order.order()?.request.type == .limit(exactDecimal(exact)))
        #expect(try wire.order.order()?.request.type.limitPrice?.description == exact)
    }

    @Test func ordersThatAreNotWhatTradierDocumentsSayWhich() async throws {
        func error(_ order: String) async -> BrokerError? {
            let servicer = FixtureRoutesServicer.answering(status: 200, body: #"{"orders":{"order":\#(order)}}"#)
            return await T.thrown { () async throws(BrokerError) in try await broker(servicer, accountID: "6YA05708").orders(status: .all) }
        }
        let base = #""id":7,"symbol":"AAPL","quantity":1.0,"create_date":"2024-11-13T15:00:00.000Z","class":"equity""#
        #expect(await error(#"{\#(base),"type":"market","side":"buy","status":"open","duration":"fortnight"}"#)
            == .badResponse(#"tradier: order 7: duration "fortnight" is not day, gtc, pre or post"#))
        #expect(await error(#"{\#(base),"type":"market","side":"buy_to_open","status":"open","duration":"day"}"#)
            == .badResponse(#"tradier: order 7: side "buy_to_open" is not buy, sell, sell_short or buy_to_cover"#))
        #expect(await error(#"{\#(base),"type":"stop","side":"buy","status":"open","duration":"day"}"#)
            == .badResponse("tradier: order 7: a stop order without stop_price"))
        #expect(await error(#"{\#(base),"type":"market","side":"buy","status":"lost","duration":"day"}"#)
            == .badResponse(#"tradier: order 7: status "lost" is unknown"#))
        #expect(await error(#"{\#(base),"type":"debit","side":"buy","status":"open","duration":"day"}"#)
            == .badResponse(#"tradier: order 7: type "debit" is not market, limit, stop or stop_limit"#))
        #expect(await error(#"{"id":7,"symbol":"AAPL","quantity":1.0,"create_date":"2024-11-13T15:00:00.000Z","class":"equity","type":"market","side":"buy","duration":"day"}"#)?
            .description.contains("missing key 'status'") == true)
    }

    @Test func anErrorOrderKeepsTradiersReason() throws {
        let body = #"{"order":{"id":8,"type":"market","symbol":"AAPL","side":"buy","quantity":1,"status":"error","duration":"day","create_date":"2024-11-13T15:00:00.000Z","class":"equity"}}"#
        let wire = try TradierResponseDecoding.decode(TradierOrderEnvelope.self, from: HTTPResponse(status: 200, body: Data(body.utf8)))
        #expect(try wire.order.order()?.status == .rejected(reason: "Tradier reported an error with this order (no detail given)"))
    }

    // MARK: Placing

    @Test func placingSendsTheDocumentedFormAndReturnsThePendingOrder() async throws {
        let servicer = try routes()
        let order = T.request("AAPL", .buy, "10", .limit(exactDecimal("150.25")), .day, clientOrderID: "cb-0101")
        let placed = try await broker(servicer).place(order)
        #expect(servicer.sent.map(\.url) == ["https://sandbox.tradier.com/v1/user/profile", "https://sandbox.tradier.com/v1/accounts/6YA05708/orders"])
        let sent = try #require(servicer.requests.last)
        #expect(sent.method == "POST")
        #expect(sent.headerFields["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(sent.headerFields["Accept"] == "application/json")
        #expect(sent.headerFields["Authorization"] == "Bearer test-token")
        #expect(servicer.sent.last?.secretNames == ["Authorization"])
        #expect(T.body(sent) == "class=equity&symbol=AAPL&side=buy&quantity=10&type=limit&duration=day&price=150.25&tag=cb-0101")
        #expect(placed == Order(request: order, id: OrderID("257459"), status: .pending, createdAt: Self.now, updatedAt: Self.now))
    }

    @Test(arguments: [
        (OrderSide.sellShort, "100", OrderType.stopLimit(stop: exactDecimal("0.1"), limit: exactDecimal("0.0999")), TimeInForce.gtc, "cb-7",
         "class=equity&symbol=BRK%2FB&side=sell_short&quantity=100&type=stop_limit&duration=gtc&price=0.0999&stop=0.1&tag=cb-7"),
        (.buyToCover, "5", .stop(242), .day, "",
         "class=equity&symbol=BRK%2FB&side=buy_to_cover&quantity=5&type=stop&duration=day&stop=242"),
        (.sell, "1", .market, .day, "A-z-09",
         "class=equity&symbol=BRK%2FB&side=sell&quantity=1&type=market&duration=day&tag=A-z-09"),
    ])
    func formBodiesByteForByte(_ side: OrderSide, _ quantity: String, _ type: OrderType, _ timeInForce: TimeInForce, _ tag: String, _ form: String) throws {
        let body = try TradierOrderForm.place(T.request("BRK.B", side, quantity, type, timeInForce, clientOrderID: tag)).get()
        #expect(String(decoding: body, as: UTF8.self) == form)
    }

    @Test func theFormEncodesWhatItMust() {
        #expect(String(decoding: TradierOrderForm.encoded([("a b", "x&y=z/ü+*~")]), as: UTF8.self) == "a+b=x%26y%3Dz%2F%C3%BC%2B*%7E")
    }

    @Test func whatTradierWouldRefuseIsNeverSent() async throws {
        let servicer = try routes()
        let tradier = broker(servicer, accountID: "6YA05708")
        let fractional = await T.thrown { () async throws(BrokerError) in
            try await tradier.place(T.request("AAPL", .buy, "1.5", .market, clientOrderID: "c"))
        }
        #expect(fractional == .orderRejected(reason: "quantity 1.5: Tradier takes whole shares"))
        let badTag = await T.thrown { () async throws(BrokerError) in
            try await tradier.place(T.request("AAPL", .buy, "1", .market, clientOrderID: "cb_01"))
        }
        #expect(badTag == .orderRejected(reason: "client order id \"cb_01\" cannot be Tradier's tag: letters, digits and - only, at most 255"))
        let longTag = await T.thrown { () async throws(BrokerError) in
            try await tradier.place(T.request("AAPL", .buy, "1", .market, clientOrderID: String(repeating: "a", count: 256)))
        }
        #expect(longTag?.shortReason == "order rejected")
        #expect(servicer.requests.isEmpty)
    }

    @Test func refusalsOfTheOrderItself() async throws {
        let order = T.request("AAPL", .sell, "1000", .market, clientOrderID: "cb-9")
        let refused = broker(try routes(), accountID: "VA000002")
        #expect(await T.thrown { () async throws(BrokerError) in try await refused.place(order) }
            == .orderRejected(reason: "Backoffice rejected override of the order.; Sell order cannot be placed unless the account holds the shares."))
        // Tradier's downstream systems report problems inside a 200 (reference §1.4).
        let poor = broker(try routes(), accountID: "VA000003")
        #expect(await T.thrown { () async throws(BrokerError) in try await poor.place(order) }
            == .insufficientBuyingPower("You do not have enough buying power for this order."))
        let notOK = FixtureRoutesServicer.answering(status: 200, body: #"{"order":{"id":1,"status":"denied"}}"#)
        #expect(await T.thrown { () async throws(BrokerError) in try await broker(notOK, accountID: "6YA05708").place(order) }
            == .orderRejected(reason: #"Tradier answered "denied" to placing the order"#))
        let down = FixtureRoutesServicer.answering(status: 503, body: "")
        #expect(await T.thrown { () async throws(BrokerError) in try await broker(down, accountID: "6YA05708").place(order) } == .server(status: 503))
    }

    // MARK: Cancelling and changing

    @Test func cancelling() async throws {
        let servicer = try routes()
        let tradier = broker(servicer, accountID: "6YA05708")
        try await tradier.cancel(id: OrderID("228175"))
        #expect(servicer.requests.first?.method == "DELETE")
        #expect(servicer.requests.first?.url.absoluteString == "https://sandbox.tradier.com/v1/accounts/6YA05708/orders/228175")
        #expect(servicer.requests.first?.body == nil)
        #expect(await T.thrown { () async throws(BrokerError) in try await tradier.cancel(id: OrderID("228176")) }
            == .orderRejected(reason: "Order is not in a cancelable state."))
        #expect(await T.thrown { () async throws(BrokerError) in try await tradier.cancel(id: OrderID("")) }
            == .orderRejected(reason: "order id \"\" is not one Tradier issued"))
        #expect(servicer.requests.count == 2)
    }

    @Test func changingAnOrdersPriceReadsItThenPutsTheForm() async throws {
        let servicer = try routes()
        let wanted = T.request("AAPL", .buy, "50", .stopLimit(stop: 151, limit: exactDecimal("151.5")), .gtc, clientOrderID: "ignored")
        let changed = try await broker(servicer, accountID: "6YA05708").replace(id: OrderID("228175"), wanted)
        #expect(servicer.requests.map { "\($0.method) \($0.url.absoluteString)" } == [
            "GET https://sandbox.tradier.com/v1/accounts/6YA05708/orders/228175?includeTags=true",
            "PUT https://sandbox.tradier.com/v1/accounts/6YA05708/orders/228175",
        ])
        #expect(servicer.requests.last?.headerFields["Content-Type"] == "application/x-www-form-urlencoded")
        #expect(T.body(servicer.requests.last) == "type=stop_limit&duration=gtc&price=151.5&stop=151")
        // The order keeps its id and its tag; Tradier has taken the change, not yet listed it.
        #expect(changed == Order(
            request: T.request("AAPL", .buy, "50", .stopLimit(stop: 151, limit: exactDecimal("151.5")), .gtc, clientOrderID: "cb-0201"),
            id: OrderID("228175"), status: .pending, createdAt: T.date("2024-11-13T15:02:29.682Z"), updatedAt: Self.now))
    }

    @Test func aChangeTradierCannotMakeIsRefusedBeforeThePut() async throws {
        let servicer = try routes()
        let moreShares = T.request("AAPL", .buy, "60", .limit(151), clientOrderID: "c")
        let error = await T.thrown { () async throws(BrokerError) in try await broker(servicer, accountID: "6YA05708").replace(id: OrderID("228175"), moreShares) }
        #expect(error == .orderRejected(reason: "Tradier changes only an order's type, prices and duration; to change its symbol, side or quantity, cancel it and place a new one"))
        #expect(servicer.requests.map(\.method) == ["GET"])
    }

    @Test func aClosedOrderIsNotChanged() async throws {
        let filled = #"{"order":{"id":228176,"type":"market","symbol":"SPY","side":"sell_short","quantity":10.00000000,"status":"filled","duration":"day","avg_fill_price":450.125,"exec_quantity":10.00000000,"create_date":"2024-11-13T14:45:00.100Z","transaction_date":"2024-11-13T14:45:00.118Z","class":"equity"}}"#
        let servicer = FixtureRoutesServicer.answering(status: 200, body: filled)
        let error = await T.thrown { () async throws(BrokerError) in
            try await broker(servicer, accountID: "6YA05708").replace(id: OrderID("228176"), T.request("SPY", .sellShort, "10", .limit(451), clientOrderID: "c"))
        }
        #expect(error == .orderRejected(reason: "order 228176 is filled, not open; nothing to change"))
        #expect(servicer.requests.map(\.method) == ["GET"])
    }

    // MARK: Live trading

    @Test func productionOrdersAreRefusedAndNothingIsSentNotEvenTheProfile() async throws {
        let servicer = try routes()
        let tradier = broker(servicer, environment: .production)
        let order = T.request("AAPL", .buy, "10", .limit(exactDecimal("150.25")), clientOrderID: "cb-0101")
        let refusal = BrokerError.liveTradingNotAllowed(broker: "tradier")
        #expect(await T.thrown { () async throws(BrokerError) in try await tradier.place(order) } == refusal)
        #expect(await T.thrown { () async throws(BrokerError) in try await tradier.replace(id: OrderID("228175"), order) } == refusal)
        #expect(await T.thrown { () async throws(BrokerError) in try await tradier.cancel(id: OrderID("228175")) } == refusal)
        #expect(servicer.requests.isEmpty)

        #expect(try await tradier.positions().count == 5)
        #expect(servicer.sent.map(\.url) == ["https://api.tradier.com/v1/user/profile", "https://api.tradier.com/v1/accounts/6YA05708/positions"])
    }

    @Test func aSandboxRunPointedAtTheLiveHostIsStillRefused() async throws {
        let servicer = try routes()
        let tradier = broker(servicer, accountID: "6YA05708", overrides: ["tradier": URL(string: "https://api.tradier.com")!])
        let error = await T.thrown { () async throws(BrokerError) in try await tradier.place(T.request("AAPL", .buy, "1", .market, clientOrderID: "c")) }
        #expect(error == .liveTradingNotAllowed(broker: "tradier"))
        #expect(servicer.requests.isEmpty)
    }

    @Test func liveTradingAllowedSendsToTheLiveAPI() async throws {
        let servicer = try routes()
        let tradier = broker(servicer, accountID: "6YA05708", environment: .production, liveTrading: .allowed)
        _ = try await tradier.place(T.request("AAPL", .buy, "10", .limit(exactDecimal("150.25")), clientOrderID: "cb-0101"))
        try await tradier.cancel(id: OrderID("228175"))
        #expect(servicer.sent.map(\.url) == ["https://api.tradier.com/v1/accounts/6YA05708/orders", "https://api.tradier.com/v1/accounts/6YA05708/orders/228175"])
    }

    @Test func anEmptyAccountSettingMeansTheProfilesAccount() {
        #expect(broker(.answering(status: 500, body: ""), accountID: "").accountID == nil)
    }
}
