import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing

/// 10,000 seeded random events through `AppState.update`, checking after each one what must always hold.
@Suite struct AppStateRandomWalkTests {
    static let keys: [KeyPress] = [
        .character("a"), .character("d"), .character("u"), .character("j"), .character("k"), .character("g"),
        .character("G"), .character("s"), .character("?"), .character("m"), .character("A"), .character("x"),
        .character("$"), .character(" "), .character(","), .up, .down, .pageUp, .pageDown, .home, .end,
        .enter, .escape, .backspace, .delete,
        // Lists: switch, open the menu, create, rename, delete and confirm, reorder.
        .tab, .backTab, .character("W"), .character("n"), .character("r"), .character("y"), .character("J"),
        .character("K"), .character("1"), .character("2"), .character("3"),
        // Trading: the ticket, its fields, positions and orders, cancelling.
        .character("B"), .character("S"), .character("P"), .character("O"), .character("c"), .right, .left,
        .character("0"), .character("5"), .character("."),
    ]
    static let symbols = ["AAPL", "MSFT", "NVDA", "^GSPC", "BRK.B", "TSLA"]

    @Test(arguments: [1, 2, 3] as [UInt64])
    func invariantsHoldOverTenThousandRandomEvents(seed: UInt64) async {
        var random = SplitMix64(seed: seed)
        func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        var driver = AppStateDriver(
            brokers: [alpha, beta], symbols: ["AAPL", "MSFT"], accountBrokers: [alpha],
            tradingBrokers: [TradingBroker(branding: paper, quoteSourceID: "alpha")])
        driver.send(.started)
        for step in 0..<10_000 {
            driver.now = t0.addingTimeInterval(Double(step) / 10)
            switch random.next() % 12 {
            case 10, 11:
                // A whole list gesture now and then, from whatever mode the walk is in.
                let name = "L\(random.next() % 20)"
                let symbol = pick(Self.symbols).lowercased()
                let gestures: [[KeyPress]] = [
                    [.escape, .escape, .character("a")] + symbol.map { KeyPress.character($0) } + [.enter],
                    [.escape, .escape, .character("a")] + symbol.map { KeyPress.character($0) } + [.enter],
                    [.escape, .escape, .character("d")],
                    [.escape, .escape, .character("u")],
                    [.escape, .escape, .character("W"), .character("n")] + name.map { KeyPress.character($0) } + [.enter],
                    [.escape, .escape, .character("W"), .character("d"), .character("y")],
                    [.escape, .escape, .character("W"), .character("r"), .backspace] + name.map { KeyPress.character($0) } + [.enter],
                    [.escape, .escape, .escape, .character("B"), .character("1"), .character("0"), .enter],
                    [.escape, .escape, .escape, .character("P"), .character("S"), .enter],
                    [.escape, .escape, .escape, .character("O"), .character("c"), .character("y")],
                ]
                for key in pick(gestures) { driver.send(.key(key)) }
            case 0..<6:
                // Typing letters of symbols now and then, so adds succeed as well as fail.
                if random.next() % 3 == 0 {
                    for character in pick(Self.symbols).lowercased() { driver.send(.key(.character(character))) }
                } else {
                    driver.send(.key(pick(Self.keys)))
                }
            case 6:
                let symbol = pick(Self.symbols)
                let key = QuoteKey(brandID: pick(["alpha", "beta"]), symbol: symbol)
                driver.send(.market(MarketUpdate(quotes: [key: quote(symbol, ExactDecimal(Int(random.next() % 500) + 1))])))
            case 7:
                let key = QuoteKey(brandID: pick(["alpha", "beta"]), symbol: pick(Self.symbols))
                driver.send(.market(MarketUpdate(
                    failures: [key: pick([BrokerError.server(status: 500), .unknownSymbol(key.symbol)])],
                    brokerStates: [key.brandID: pick([.live, .reconnecting(attempt: 2, reason: "reset"), .polling])])))
            case 8:
                driver.send(.resize(ScreenSize(columns: 40 + Int(random.next() % 160), rows: 8 + Int(random.next() % 60))))
            case 9 where random.next() % 2 == 0:
                // The broker answers: a sent order, or the portfolio with positions in symbols on no list.
                if case .ticket(let ticket) = driver.state.front, ticket.step == .sending, case .success(let request) = ticket.request() {
                    let order = Order(request: request, id: OrderID("P-\(step)"), status: .accepted, createdAt: driver.now, updatedAt: driver.now)
                    driver.send(.orderPlaced(brokerID: "paper", request, random.next() % 3 == 0 ? .failure(.orderRejected(reason: "no")) : .success(order)))
                } else {
                    let positions = (0..<Int(random.next() % 3)).map { _ in
                        Position(brokerID: "paper", symbol: pick(Self.symbols + ["IBM", "ORCL"]), quantity: 1, averageCost: 1, costBasis: 1)
                    }
                    driver.send(.portfolio(brokerID: "paper", .success(PortfolioSnapshot(positions: positions))))
                }
            default:
                driver.send(.tick)
            }
            let state = driver.state
            let ids = state.rows.map(\.id)
            #expect(Set(ids).count == ids.count, "duplicate rows at step \(step)")
            // `c` (here and in the trading screens' keys) turns the rows into one per symbol.
            #expect(state.rows.count == state.symbols.count * (state.rowMode == .perBroker ? state.brokers.count : 1), "rows at step \(step)")
            #expect(state.rows.isEmpty ? state.selectedIndex == 0 : state.rows.indices.contains(state.selectedIndex), "selection at step \(step)")
            var wanted = Set(state.symbols).union(state.portfolio.symbols)
            if case .ticket(let ticket) = state.front { wanted.insert(ticket.symbol) }
            #expect(state.followed == wanted, "followed at step \(step)")
            #expect(driver.followedByEffects == state.followed, "follow and unfollow effects out of balance at step \(step)")
            #expect(driver.book.lists == state.lists, "saved lists at step \(step)")
            #expect(state.lists.contains { $0.name == state.currentListName }, "shown list at step \(step)")
            #expect(Set(state.lists.map { $0.name.lowercased() }).count == state.lists.count, "list names at step \(step)")
            #expect(state.messageLog.count <= AppState.messageLogLimit)
            if step % 500 == 0 { await Task.yield() }
        }
        // The walk reached what it is meant to check: lists edited both ways, the overlays opened.
        let edits = driver.effects.compactMap { effect -> WatchlistEdit? in
            if case .persist(let edit) = effect { return edit }
            return nil
        }
        #expect(edits.filter { if case .add = $0 { true } else { false } }.count > 20)
        #expect(edits.filter { if case .remove = $0 { true } else { false } }.count > 20)
        #expect(driver.effects.contains(.fetchAccounts))
        #expect(edits.filter { if case .createList = $0 { true } else { false } }.count > 5)
        #expect(edits.filter { if case .deleteList = $0 { true } else { false } }.count > 2)
        #expect(driver.effects.filter { if case .placeOrder = $0 { true } else { false } }.count > 3, "the walk sent orders")
        #expect(driver.effects.contains(.fetchPortfolio))
    }
}
