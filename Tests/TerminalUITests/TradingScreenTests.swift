import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing
import TerminalUI

/// The positions screen, the orders screen and the order ticket (issue 15, item 5) as text.
@Suite struct TradingScreenTests {
    typealias F = WatchlistFixture

    static let paper = ServiceBranding(id: "paper", name: "Paper", glyph: "p", color: .green)

    static func request(_ symbol: String, _ side: OrderSide, _ quantity: ExactDecimal, _ type: OrderType, _ tif: TimeInForce = .day) -> OrderRequest {
        try! OrderRequest(symbol: symbol, side: side, quantity: quantity, type: type, timeInForce: tif, clientOrderID: ClientOrderID("c"))
    }

    static var portfolio: PortfolioStore {
        var store = PortfolioStore(brokers: [F.alpha, paper])
        let filled = {
            var order = Order(request: request("AAPL", .buy, 10, .market), id: OrderID("p-1"), status: .filled, createdAt: F.ago(600), updatedAt: F.ago(600))
            order.filledQuantity = 10
            order.averageFillPrice = ExactDecimal(parsing: "187.12")
            return order
        }()
        store.apply(.success(PortfolioSnapshot(
            positions: [
                Position(brokerID: "paper", symbol: "AAPL", quantity: 10, averageCost: ExactDecimal(parsing: "187.12")!, costBasis: ExactDecimal(parsing: "1871.2")!, realizedPnL: 0),
                Position(brokerID: "paper", symbol: "NVDA", quantity: -5, averageCost: 135, costBasis: -675, realizedPnL: ExactDecimal(parsing: "12.5")!),
            ],
            orders: [
                filled,
                Order(request: request("AAPL", .sell, 10, .limit(195), .gtc), id: OrderID("p-2"), status: .accepted, createdAt: F.ago(60), updatedAt: F.ago(60)),
                Order(request: request("MSFT", .buy, 3, .stopLimit(stop: 410, limit: 411)), id: OrderID("p-3"), status: .rejected(reason: "halted\u{1B}[2J"), createdAt: F.ago(30), updatedAt: F.ago(30)),
            ],
            balances: [AccountBalance(accountID: "paper", cash: ExactDecimal(parsing: "97453.8")!, buyingPower: ExactDecimal(parsing: "97453.8")!, equity: ExactDecimal(parsing: "99311.3")!)])), for: "paper", at: F.now)
        store.apply(.failure(.unauthorized(hint: "check APCA_API_KEY_ID")), for: F.alpha.id, at: F.now)
        return store
    }

    static func positionsState() -> WatchlistViewState {
        var state = F.state(front: .positions(PositionsScreen(selected: 1)), message: nil)
        state.portfolio = portfolio
        state.positions = PositionsSummary(portfolio: portfolio) { _, symbol in
            switch symbol {
            case "AAPL": CommonQuote(symbol: "AAPL", last: exactDecimal("189.84"), timestamp: F.now, previousClose: exactDecimal("187.5"))
            case "NVDA": CommonQuote(symbol: "NVDA", last: exactDecimal("131.07"), timestamp: F.now, previousClose: 128)
            default: nil
            }
        }
        return state
    }

    static func ordersState() -> WatchlistViewState {
        var state = F.state(front: .orders(OrdersScreen()), message: nil)
        state.portfolio = portfolio
        return state
    }

    static func ticketState(live: Bool = false, problem: Bool = false) -> WatchlistViewState {
        let broker = TradingBroker(branding: paper, isLive: live, quoteSourceID: "demo-alpha", commission: .init(perShare: ExactDecimal(parsing: "0.005")!, minimumPerOrder: 1))
        var ticket = OrderTicket(symbol: "AAPL", side: .buy, brokers: [broker], preferredBrokerID: nil, clientOrderID: ClientOrderID("c"))!
        for character in "10" { _ = ticket.update(.type(character)) }
        _ = ticket.update(.nextField)
        _ = ticket.update(.cycle(by: 1))
        _ = ticket.update(.nextField)
        for character in problem ? "189.855" : "189.85" { _ = ticket.update(.type(character)) }
        if problem { _ = ticket.update(.submit) }
        var state = F.state(front: .ticket(ticket), message: nil)
        state.ticketPreview = TicketPreview(
            ticket: ticket, quote: CommonQuote(symbol: "AAPL", last: exactDecimal("189.84"), timestamp: F.now, bid: exactDecimal("189.83"), ask: exactDecimal("189.85")),
            buyingPower: ExactDecimal(parsing: "97453.8"))
        state.tradesLive = live
        return state
    }

    @Test(arguments: [(120, 35), (80, 24), (60, 20)])
    func positions(columns: Int, rows: Int) {
        Snapshot.expect(F.render(Self.positionsState(), columns: columns, rows: rows), matches: "positions-\(columns)x\(rows)")
    }

    @Test(arguments: [(120, 35), (80, 24), (60, 20)])
    func orders(columns: Int, rows: Int) {
        Snapshot.expect(F.render(Self.ordersState(), columns: columns, rows: rows), matches: "orders-\(columns)x\(rows)")
    }

    @Test(arguments: [(120, 35), (80, 24), (60, 20)])
    func ticket(columns: Int, rows: Int) {
        Snapshot.expect(F.render(Self.ticketState(), columns: columns, rows: rows), matches: "ticket-\(columns)x\(rows)")
    }

    @Test func aRefusedFieldAndALiveTicket() {
        Snapshot.expect(F.render(Self.ticketState(problem: true), columns: 80, rows: 24), matches: "ticket-bad-price-80x24")
        let live = F.render(Self.ticketState(live: true), columns: 100, rows: 30)
        #expect(live.lines[0].contains("LIVE TRADING"))
        #expect(live.lines.contains { $0.contains("LIVE: this order goes to a real account") })
    }

    /// Lots imported from elsewhere show where they are held: the broker label as the position's account,
    /// after the source's name, escaped like any text from a file.
    @Test func heldElsewhereShowsItsLabel() {
        let manual = ServiceBranding(id: "manual", name: "Held elsewhere", glyph: "H", color: .white)
        var store = PortfolioStore(brokers: [manual])
        store.apply(.success(PortfolioSnapshot(positions: [
            Position(brokerID: "manual", symbol: "AAPL", quantity: 7, averageCost: 160, costBasis: 1120, realizedPnL: 0, account: "Fidelity IRA"),
            Position(brokerID: "manual", symbol: "MSFT", quantity: 2, averageCost: 400, costBasis: 800, realizedPnL: 0, account: "Joint\u{1B}[2J"),
        ], orders: [], balances: [])), for: "manual", at: F.now)
        var state = F.state(front: .positions(PositionsScreen(selected: 0)), message: nil)
        state.portfolio = store
        state.positions = PositionsSummary(portfolio: store) { _, _ in nil }
        let frame = F.render(state, columns: 120, rows: 12)
        Snapshot.expect(frame, matches: "positions-held-elsewhere-120x12")
        #expect(frame.lines.contains { $0.contains("Held elsewhere · Fidelity IRA") })
        #expect(!frame.lines.joined().unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test func brokerTextIsEscaped() {
        let frame = F.render(Self.ordersState(), columns: 120, rows: 35)
        #expect(!frame.lines.joined().unicodeScalars.contains { $0.value == 0x1B })
        #expect(frame.lines.contains { $0.contains("rejected: halted\\u{1b}[2J") }, "the escape is spelled out")
    }
}
