import Domain
import Foundation
import Interactors
import Stores
import TerminalKit
import Testing

let paper = ServiceBranding(id: "paper", name: "Paper", glyph: "p", color: .green)
let liveBroker = ServiceBranding(id: "tradier", name: "Tradier", glyph: "t", color: .blue)

@Suite struct TradingTests {
    static let paperBroker = TradingBroker(
        branding: paper, quoteSourceID: "alpha", commission: .init(perShare: ExactDecimal(parsing: "0.005")!, minimumPerOrder: 1))

    func driver(trading: [TradingBroker] = [paperBroker]) -> AppStateDriver {
        var driver = AppStateDriver(brokers: [alpha, beta], symbols: ["AAPL", "MSFT"], tradingBrokers: trading)
        driver.send(.started)
        driver.apply(MarketUpdate(quotes: [
            QuoteKey(brandID: "alpha", symbol: "AAPL"): CommonQuote(symbol: "AAPL", last: exactDecimal("190.10"), timestamp: t0, bid: exactDecimal("190.09"), ask: exactDecimal("190.12"), previousClose: 188),
        ]))
        return driver
    }

    func order(_ request: OrderRequest, id: String = "p-1", status: OrderStatus = .accepted) -> Order {
        Order(request: request, id: OrderID(id), status: status, createdAt: t0, updatedAt: t0)
    }

    @Test func startingAsksForThePortfolioWhenABrokerTrades() {
        var plain = AppStateDriver(brokers: [alpha], symbols: ["AAPL"])
        #expect(!plain.send(.started).contains(.fetchPortfolio))
        var trading = AppStateDriver(brokers: [alpha], symbols: ["AAPL"], tradingBrokers: [Self.paperBroker])
        #expect(trading.send(.started).contains(.fetchPortfolio))
    }

    @Test func aMarketBuyFromTheTicketSendsExactlyWhatWasTyped() throws {
        var driver = driver()
        driver.press(.character("B"))
        guard case .ticket(let ticket) = driver.state.front else { Issue.record("B opens the ticket"); return }
        #expect(ticket.symbol == "AAPL")
        #expect(ticket.side == .buy)
        #expect(ticket.broker.branding.id == "paper", "the row's broker does not trade: the paper broker takes it")
        #expect(ticket.focus == .quantity)
        driver.type("10")
        let preview = try #require(driver.state.viewState().ticketPreview)
        #expect(preview.price == ExactDecimal(parsing: "190.12"))
        #expect(preview.priceSource == "ask")
        #expect(preview.amount == ExactDecimal(parsing: "1901.2"))
        #expect(preview.commission == 1, "10 shares at 0.005 is less than the 1.00 minimum")
        let effects = driver.press(.enter)
        let expected = try OrderRequest(
            symbol: "AAPL", side: .buy, quantity: 10, type: .market, timeInForce: .day, clientOrderID: ticket.clientOrderID)
        #expect(effects.contains(.placeOrder(brokerID: "paper", expected)))
        guard case .ticket(let sending) = driver.state.front else { Issue.record("the ticket waits for the answer"); return }
        #expect(sending.step == .sending)

        let answer = driver.send(.orderPlaced(brokerID: "paper", expected, .success(order(expected))))
        #expect(driver.state.front == .watchlist)
        #expect(driver.state.message?.text.contains("BUY 10 AAPL market day sent to Paper: accepted") == true)
        #expect(answer.contains(.fetchPortfolio))
    }

    @Test func aBadFieldKeepsEverythingTypedAndSaysWhatToFix() {
        var driver = driver()
        driver.press(.character("S"))
        driver.type("5")
        driver.press(.tab)  // type
        driver.press(.right)  // limit
        driver.press(.tab)  // limit price
        driver.type("190.123")
        #expect(driver.press(.enter).isEmpty)
        guard case .ticket(let ticket) = driver.state.front else { Issue.record("the ticket stays"); return }
        #expect(ticket.side == .sell)
        #expect(ticket.quantity == "5")
        #expect(ticket.kind == .limit)
        #expect(ticket.limit == "190.123")
        #expect(ticket.focus == .limit)
        #expect(ticket.problem?.message == "limit price 190.123 is not a valid price: whole cents at $1.00 and above, e.g. 190.12")
        driver.press(.backspace)
        guard case .ticket(let fixed) = driver.state.front else { return }
        #expect(fixed.problem == nil, "typing in the field clears its complaint")
    }

    @Test func aRefusedOrderKeepsTheTicketWithTheBrokersReason() throws {
        var driver = driver()
        driver.press(.character("B"))
        driver.type("1000000")
        driver.press(.enter)
        guard case .ticket(let ticket) = driver.state.front, case .success(let request) = ticket.request() else { Issue.record("sent"); return }
        driver.send(.orderPlaced(brokerID: "paper", request, .failure(.insufficientBuyingPower("needs 190,120,000.00, has 100,000.00"))))
        guard case .ticket(let refused) = driver.state.front else { Issue.record("the ticket stays open"); return }
        #expect(refused.step == .editing)
        #expect(refused.quantity == "1000000")
        #expect(refused.problem?.message == "Paper refused it: insufficient buying power: needs 190,120,000.00, has 100,000.00")
        driver.press(.escape)
        #expect(driver.state.front == .watchlist)
    }

    @Test func aLiveOrderNeedsTheSymbolTypedAgain() throws {
        let live = TradingBroker(branding: liveBroker, isLive: true)
        var driver = driver(trading: [live])
        #expect(driver.state.viewState().tradesLive)
        driver.press(.character("B"))
        driver.type("1")
        #expect(driver.press(.enter).isEmpty, "nothing is sent before the symbol is typed again")
        driver.type("MSFT")
        #expect(driver.press(.enter).isEmpty)
        guard case .ticket(let ticket) = driver.state.front, case .confirmingLive(let prompt) = ticket.step else {
            Issue.record("still confirming"); return
        }
        #expect(prompt.error == "type AAPL to send this live order, or Esc to go back")
        for _ in 0..<4 { driver.press(.backspace) }
        driver.type("aapl")
        let effects = driver.press(.enter)
        #expect(effects.contains { if case .placeOrder(brokerID: "tradier", _) = $0 { true } else { false } })
    }

    @Test func positionsAreValuedAtTheLiveQuoteAndFollowed() throws {
        var driver = driver()
        let held = Position(brokerID: "paper", symbol: "NVDA", quantity: 10, averageCost: 100, costBasis: 1_000)
        let balance = AccountBalance(accountID: "paper", cash: 99_000, buyingPower: 99_000, equity: 100_000)
        let effects = driver.send(.portfolio(brokerID: "paper", .success(PortfolioSnapshot(positions: [held], balances: [balance]))))
        #expect(effects.contains(.follow(["NVDA"])), "a position's price is followed though it is on no list")
        driver.apply(MarketUpdate(quotes: [
            QuoteKey(brandID: "alpha", symbol: "NVDA"): CommonQuote(symbol: "NVDA", last: exactDecimal("110.5"), timestamp: t0, previousClose: 109),
        ]))
        #expect(driver.press(.character("P")).contains(.fetchPortfolio))
        let summary = try #require(driver.state.viewState().positions)
        let line = try #require(summary.lines.first)
        #expect(line.position.marketValue == 1_105)
        #expect(line.position.unrealizedPnL == 105)
        #expect(line.position.unrealizedPnLPercent == ExactDecimal(parsing: "10.5"))
        #expect(line.position.todayPnL == 15)
        #expect(summary.totals.unrealizedPnL == 105)
        #expect(summary.accounts.map(\.balance) == [balance])

        // S on the position sells all of it.
        driver.press(.character("S"))
        guard case .ticket(let ticket) = driver.state.front else { Issue.record("S opens the ticket"); return }
        #expect(ticket.symbol == "NVDA" && ticket.side == .sell && ticket.quantity == "10")
    }

    @Test func openTradingScreensRefreshEveryFewSeconds() {
        var driver = driver()
        driver.press(.character("O"))
        driver.now = t0.addingTimeInterval(2)
        #expect(driver.send(.tick).isEmpty)
        driver.now = t0.addingTimeInterval(6)
        #expect(driver.send(.tick) == [.fetchPortfolio])
        driver.press(.escape)
        driver.now = t0.addingTimeInterval(30)
        #expect(driver.send(.tick).isEmpty, "closed, nothing is asked")
    }

    @Test func cancellingAnOpenOrderAsksFirst() throws {
        var driver = driver()
        let request = try OrderRequest(symbol: "AAPL", side: .sell, quantity: 5, type: .limit(200), timeInForce: .gtc, clientOrderID: ClientOrderID("c1"))
        let done = try OrderRequest(symbol: "MSFT", side: .buy, quantity: 1, type: .market, timeInForce: .day, clientOrderID: ClientOrderID("c2"))
        driver.send(.portfolio(brokerID: "paper", .success(PortfolioSnapshot(orders: [
            order(done, id: "p-2", status: .filled), order(request, id: "p-1"),
        ]))))
        driver.press(.character("O"))
        #expect(OrdersScreen.rows(of: driver.state.portfolio).map(\.order.id.rawValue) == ["p-1", "p-2"], "open orders first")
        #expect(driver.press(.character("c")).isEmpty)
        guard case .orders(let screen) = driver.state.front else { return }
        #expect(screen.confirmingCancel?.order.id == OrderID("p-1"))
        #expect(driver.press(.character("n")).isEmpty)
        driver.press(.character("c"))
        #expect(driver.press(.character("y")).contains(.cancelOrder(brokerID: "paper", OrderID("p-1"))))
        driver.press(.down, .character("c"))
        #expect(driver.state.message?.text == "Only an open order can be cancelled; this one is filled")
    }

    @Test func aPaperFillIsAnnouncedAndRecorded() throws {
        var driver = driver()
        let request = try OrderRequest(symbol: "AAPL", side: .buy, quantity: 10, type: .market, timeInForce: .day, clientOrderID: ClientOrderID("c1"))
        var filled = order(request, status: .filled)
        filled.filledQuantity = 10
        filled.averageFillPrice = ExactDecimal(parsing: "190.12")
        #expect(driver.send(.trading(TradingActivity(brokerID: "paper", order: filled))).contains(.fetchPortfolio))
        #expect(driver.state.message?.text == "Paper filled 10 of BUY 10 AAPL market day at 190.12")
        #expect(driver.state.portfolio.portfolio(for: "paper")?.orders == [filled])
    }

    @Test func withoutATradingBrokerTheTicketSaysHowToGetOne() {
        var driver = AppStateDriver(brokers: [alpha], symbols: ["AAPL"])
        driver.press(.character("B"))
        #expect(driver.state.front == .watchlist)
        #expect(driver.state.message?.text.contains("enable the paper broker") == true)
    }
}
