import Foundation
import Domain
import Locking
import Testing

/// A consumer written against the box only, as a screen would be: it shows "sending" while the order is out.
private final class TicketModel: Sendable {
    let place: Service<OrderRequest, Result<Order, BrokerError>>
    let state = Locked("idle")

    init(place: Service<OrderRequest, Result<Order, BrokerError>>) {
        self.place = place
    }

    var shown: String { state.withLock { $0 } }

    func submit(_ request: OrderRequest) async {
        state.withLock { $0 = "sending" }
        switch await place(request) {
        case .success(let order): state.withLock { $0 = "placed \(order.id)" }
        case .failure(let error): state.withLock { $0 = error.description }
        }
    }
}

@Suite struct ServiceTests {
    let request: OrderRequest
    let placed: Order

    init() throws {
        request = try OrderRequest(symbol: "AAPL", side: .buy, quantity: 10, type: .limit(150), timeInForce: .day, clientOrderID: ClientOrderID("c-1"))
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        placed = Order(request: request, id: OrderID("o-7"), status: .accepted, createdAt: when, updatedAt: when)
    }

    @Test func mockAnswersWithItsStubAndRecordsTheInput() async {
        let mock = Service<OrderRequest, Result<Order, BrokerError>>.Mock(stubOutput: .success(placed))
        let ticket = TicketModel(place: mock.service)
        await ticket.submit(request)
        #expect(mock.inputs == [request])
        #expect(ticket.shown == "placed o-7")

        mock.stubOutput = .failure(.orderRejected(reason: "market closed"))
        await ticket.submit(request)
        #expect(ticket.shown == "order rejected: market closed")
        #expect(mock.inputs.count == 2)
    }

    @Test func validationHookSeesTheInputWhileTheCallerWaits() async {
        let mock = Service<OrderRequest, Result<Order, BrokerError>>.Mock(stubOutput: .success(placed))
        let ticket = TicketModel(place: mock.service)
        let seen = Locked<[String]>([])
        mock.validationHook = { input in
            seen.withLock { $0.append("\(input.symbol) while \(ticket.shown)") }
        }
        await ticket.submit(request)
        #expect(seen.withLock { $0 } == ["AAPL while sending"])
    }

    @Test func recordsEveryCallFromConcurrentTasks() async {
        let mock = Service<Int, Int>.Mock(stubOutput: 1)
        let service = mock.service
        let total = await withTaskGroup(of: Int.self) { group in
            for input in 0..<100 { group.addTask { await service(input) } }
            return await group.reduce(0, +)
        }
        #expect(total == 100)
        #expect(mock.inputs.sorted() == Array(0..<100))
    }

    @Test func aBoxIsJustAFunction() async throws {
        let positions = Service<Void, Result<[Position], BrokerError>> {
            .success([Position(brokerID: "paper", symbol: "AAPL", quantity: 1, averageCost: 1, costBasis: 1)])
        }
        #expect(try await positions().get().map(\.symbol) == ["AAPL"])
        let double = Service<Int, Int> { $0 * 2 }
        #expect(await double(21) == 42)
    }
}
