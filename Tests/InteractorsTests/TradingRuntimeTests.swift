import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing

/// A broker made of `Service` boxes (design doc 003): each endpoint a free `Mock`, so the ticket and the
/// positions screen run through the real runtime with no HTTP and the test sees exactly what was sent.
struct BoxedBroker: OrderService, PositionService {
    let branding: ServiceBranding
    let place = TradingBoxes.PlaceOrder.Mock(stubOutput: .failure(.orderRejected(reason: "not scripted")))
    let list = TradingBoxes.ListOrders.Mock(stubOutput: .success([]))
    let cancel = TradingBoxes.CancelOrder.Mock(stubOutput: .success(()))
    let positionsBox = TradingBoxes.ListPositions.Mock(stubOutput: .success([]))

    func positions() async throws(BrokerError) -> [Position] { try await positionsBox.service().get() }
    func orders(status: OrderStatusFilter) async throws(BrokerError) -> [Order] { try await list.service(status).get() }
    func place(_ request: OrderRequest) async throws(BrokerError) -> Order { try await place.service(request).get() }
    func cancel(id: OrderID) async throws(BrokerError) { try await cancel.service(id).get() }
    func replace(id: OrderID, _ request: OrderRequest) async throws(BrokerError) -> Order {
        throw .orderRejected(reason: "not used here")
    }
}

@Suite struct TradingRuntimeTests {
    @Test func theTicketSendsThroughTheBoxAndThePositionsScreenReadsItsAnswer() async throws {
        let broker = BoxedBroker(branding: paper)
        let held = Position(brokerID: "paper", symbol: "AAPL", quantity: 3, averageCost: 100, costBasis: 300)
        broker.positionsBox.stubOutput = .success([held])
        let feed = ManualFeed(brokers: [alpha])
        let store = WatchlistStore(file: nil, seed: ["AAPL"])
        _ = try store.load()
        let published = Published()
        let runtime = AppRuntime(
            live: LiveAppState(AppState(
                brokers: feed.brokers, book: store.book,
                settings: AppState.Settings(isDemo: true, tradingBrokers: [TradingBroker(branding: paper, quoteSourceID: "alpha")]))),
            feed: feed, trading: [TradingServices(orders: broker, positions: broker, accounts: nil)],
            watchlist: store, now: { t0 }, publish: published.publish)
        await runtime.start()
        feed.send(MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 110)], brokerStates: ["alpha": .live]))

        // The order the ticket makes is what the box receives.
        broker.place.validationHook = { request in
            #expect(request.symbol == "AAPL" && request.quantity == 5 && request.side == .buy && request.type == .market)
        }
        await runtime.send(.key(.character("B")))
        await runtime.send(.key(.character("5")))
        await runtime.send(.key(.enter))
        let refused = await published.first { $0.message == nil && {
            if case .ticket(let ticket) = $0.front { ticket.problem != nil } else { false }
        }($0) }
        #expect(broker.place.inputs.count == 1)
        guard case .ticket(let ticket)? = refused?.front else { Issue.record("the refusal keeps the ticket"); return }
        #expect(ticket.problem?.message == "Paper refused it: order rejected: not scripted")

        // Scripted to accept, the same ticket goes through.
        let request = try #require(broker.place.inputs.first)
        broker.place.stubOutput = .success(Order(request: request, id: OrderID("P-1"), status: .accepted, createdAt: t0, updatedAt: t0))
        await runtime.send(.key(.enter))
        let accepted = await published.first { $0.message?.text.contains("sent to Paper: accepted") == true }
        #expect(accepted?.front == .watchlist)

        // The positions screen shows the box's answer, valued at the live quote.
        await runtime.send(.key(.character("P")))
        let positions = await published.first { $0.positions?.lines.first?.position.unrealizedPnL == 30 }
        #expect(positions?.positions?.lines.first?.position.marketValue == 330)
        await runtime.stop()
    }
}
