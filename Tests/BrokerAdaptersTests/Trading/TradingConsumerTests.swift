import Domain
import Foundation
import Locking
import Networking
import Testing
@testable import BrokerAdapters

/// A consumer written against a box only, as an order ticket would be: it says "sending" while the order is
/// out, then what became of it. Tested against `Service.Mock` first, then handed each broker's live box:
/// the one point that switches is which box it is given.
private final class TicketModel: Sendable {
    let place: TradingBoxes.PlaceOrder
    private let state = Locked("idle")

    init(place: TradingBoxes.PlaceOrder) {
        self.place = place
    }

    var shown: String { state.withLock { $0 } }

    func submit(_ request: OrderRequest) async {
        state.withLock { $0 = "sending \(request.side.displayName) \(request.quantity) \(request.symbol)" }
        switch await place(request) {
        case .success(let order): state.withLock { $0 = "\(order.status.name) \(order.id)" }
        case .failure(let error): state.withLock { $0 = error.shortReason }
        }
    }
}

/// A use site that may cancel orders and nothing else: it takes `some OrderService`, so it cannot reach a
/// broker's servicer, factory or positions (the compiler says so), whichever broker it is given.
private func cancelOpenOrders(of symbol: String, at broker: some OrderService) async throws(BrokerError) -> [OrderID] {
    var cancelled: [OrderID] = []
    for order in try await broker.orders(status: .open) where order.symbol == symbol {
        try await broker.cancel(id: order.id)
        cancelled.append(order.id)
    }
    return cancelled
}

/// An `OrderService` made of boxes, for consumers that take the protocol: each method answers from its box.
private struct BoxedOrderService: OrderService {
    var branding: ServiceBranding
    var listOrders: TradingBoxes.ListOrders
    var placeOrder: TradingBoxes.PlaceOrder
    var cancelOrder: TradingBoxes.CancelOrder
    var replaceOrder: TradingBoxes.ReplaceOrder

    func orders(status: OrderStatusFilter) async throws(BrokerError) -> [Order] { try await listOrders(status).get() }
    func place(_ request: OrderRequest) async throws(BrokerError) -> Order { try await placeOrder(request).get() }
    func cancel(id: OrderID) async throws(BrokerError) { try await cancelOrder(id).get() }
    func replace(id: OrderID, _ request: OrderRequest) async throws(BrokerError) -> Order {
        try await replaceOrder(OrderReplacement(id: id, request: request)).get()
    }
}

@Suite struct TradingConsumerTests {
    typealias T = TradingTestSupport
    static let now = Date(timeIntervalSince1970: 1_731_528_960)
    let order = T.request("AAPL", .buy, "10", .limit(exactDecimal("150.25")), .day, clientOrderID: "cb-0101")

    func alpaca(_ servicer: FixtureRoutesServicer, _ environment: ServiceEnvironment = .sandbox) -> AlpacaBroker {
        AlpacaBroker(
            context: ServiceContext(environment: environment, servicer: servicer),
            credentials: AlpacaCredentials(keyID: AlpacaFixtures.keyID, secretKey: AlpacaFixtures.secretKey), now: { Self.now })
    }

    func tradier(_ servicer: FixtureRoutesServicer) -> TradierBroker {
        TradierBroker(
            context: ServiceContext(environment: .sandbox, servicer: servicer), credentials: TradierCredentials(token: "test-token"),
            accountID: "6YA05708", now: { Self.now })
    }

    @Test func theTicketAgainstMocksBeforeAnyHTTP() async {
        let placed = Order(request: order, id: OrderID("o-1"), status: .accepted, createdAt: Self.now, updatedAt: Self.now)
        let mock = TradingBoxes.PlaceOrder.Mock(stubOutput: .success(placed))
        let ticket = TicketModel(place: mock.service)
        let seen = Locked<[String]>([])
        mock.validationHook = { _ in seen.withLock { $0.append(ticket.shown) } }

        await ticket.submit(order)
        #expect(mock.inputs == [order])
        #expect(seen.withLock { $0 } == ["sending buy 10 AAPL"])
        #expect(ticket.shown == "accepted o-1")

        mock.stubOutput = .failure(.insufficientBuyingPower("the order needs 1502.5, the account has 12"))
        await ticket.submit(order)
        #expect(ticket.shown == "insufficient buying power")
        mock.stubOutput = .failure(.liveTradingNotAllowed(broker: "alpaca"))
        await ticket.submit(order)
        #expect(ticket.shown == "live trading not allowed")
    }

    @Test func theSameTicketHandedEachBrokersLiveBox() async throws {
        let alpacaServicer = try FixtureRoutesServicer(broker: "alpaca")
        let alpacaTicket = TicketModel(place: alpaca(alpacaServicer).placeOrder)
        await alpacaTicket.submit(order)
        #expect(alpacaTicket.shown == "pending 6f8a2b4c-0d1e-4f3a-9b5c-7d8e9f0a1b2c")
        #expect(alpacaServicer.requests.map(\.method) == ["POST"])

        let tradierServicer = try FixtureRoutesServicer(broker: "tradier")
        let tradierTicket = TicketModel(place: tradier(tradierServicer).placeOrder)
        await tradierTicket.submit(order)
        #expect(tradierTicket.shown == "pending 257459")

        // Production without live trading: the box refuses and the servicer never sees the order.
        let liveServicer = try FixtureRoutesServicer(broker: "alpaca")
        let liveTicket = TicketModel(place: alpaca(liveServicer, .production).placeOrder)
        await liveTicket.submit(order)
        #expect(liveTicket.shown == "live trading not allowed")
        #expect(liveServicer.requests.isEmpty)
    }

    @Test func aUseSiteThatTakesSomeOrderServiceWorksWithEveryBroker() async throws {
        let alpacaServicer = try FixtureRoutesServicer(broker: "alpaca")
        #expect(try await cancelOpenOrders(of: "AAPL", at: alpaca(alpacaServicer)) == [OrderID("61e69015-8549-4bfd-b9c3-01e75843f47d")])
        #expect(alpacaServicer.requests.map(\.method) == ["GET", "DELETE"])

        let tradierServicer = try FixtureRoutesServicer(broker: "tradier")
        #expect(try await cancelOpenOrders(of: "AAPL", at: tradier(tradierServicer)) == [OrderID("228175")])
        #expect(tradierServicer.requests.map(\.method) == ["GET", "DELETE"])

        // And with an OrderService made of mocked boxes: the cancels it asked for are the inputs seen.
        let open = Order(request: order, id: OrderID("o-7"), status: .accepted, createdAt: Self.now, updatedAt: Self.now)
        let other = Order(
            request: T.request("MSFT", .sell, "1", .market, clientOrderID: "c-2"), id: OrderID("o-8"), status: .accepted,
            createdAt: Self.now, updatedAt: Self.now)
        let list = TradingBoxes.ListOrders.Mock(stubOutput: .success([open, other]))
        let cancel = TradingBoxes.CancelOrder.Mock(stubOutput: .success(()))
        let boxed = BoxedOrderService(
            branding: AlpacaBroker.branding, listOrders: list.service,
            placeOrder: TradingBoxes.PlaceOrder.Mock(stubOutput: .failure(.cancelled)).service, cancelOrder: cancel.service,
            replaceOrder: TradingBoxes.ReplaceOrder.Mock(stubOutput: .failure(.cancelled)).service)
        #expect(try await cancelOpenOrders(of: "AAPL", at: boxed) == [OrderID("o-7")])
        #expect(list.inputs == [.open])
        #expect(cancel.inputs == [OrderID("o-7")])

        cancel.stubOutput = .failure(.orderRejected(reason: "order is not cancelable"))
        await #expect(throws: BrokerError.orderRejected(reason: "order is not cancelable")) {
            try await cancelOpenOrders(of: "AAPL", at: boxed)
        }
    }

    @Test func theListBoxesAnswerAsTheProtocolDoes() async throws {
        let broker = alpaca(try FixtureRoutesServicer(broker: "alpaca"))
        #expect(try await broker.listPositions().get() == broker.positions())
        #expect(try await broker.listOrders(.closed).get() == broker.orders(status: .closed))
        let replacement = OrderReplacement(id: OrderID("61e69015-8549-4bfd-b9c3-01e75843f47d"), request: T.request("AAPL", .buy, "5", .limit(151), .gtc, clientOrderID: "cb-0103"))
        #expect(try await broker.replaceOrder(replacement).get().id == OrderID("6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d"))
        let cancelled = await tradier(try FixtureRoutesServicer(broker: "tradier")).cancelOrder(OrderID("228175"))
        #expect((try? cancelled.get()) != nil)
    }
}
