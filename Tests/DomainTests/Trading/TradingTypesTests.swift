import Domain
import Foundation
import Testing

@Suite struct OrderRequestTests {
    func request(
        _ symbol: String = "aapl", quantity: ExactDecimal = 10, type: OrderType = .market
    ) throws(OrderRequest.Invalid) -> OrderRequest {
        try OrderRequest(symbol: symbol, side: .buy, quantity: quantity, type: type, timeInForce: .day, clientOrderID: ClientOrderID("t-1"))
    }

    @Test func normalizesTheSymbol() throws {
        #expect(try request("brk.b").symbol == "BRK.B")
    }

    @Test func refusesWhatNoBrokerCouldPlace() throws {
        #expect(throws: OrderRequest.Invalid.symbol(.invalidCharacter("AA PL", " "))) { try request("AA PL") }
        #expect(throws: OrderRequest.Invalid.quantity(0)) { try request(quantity: 0) }
        #expect(throws: OrderRequest.Invalid.quantity(-5)) { try request(quantity: -5) }
        #expect(throws: OrderRequest.Invalid.price(field: "limit", 0)) { try request(type: .limit(0)) }
        #expect(throws: OrderRequest.Invalid.price(field: "stop", -1)) { try request(type: .stopLimit(stop: -1, limit: 5)) }
        #expect(throws: OrderRequest.Invalid.price(field: "limit", -2)) { try request(type: .stopLimit(stop: 1, limit: -2)) }
        #expect(OrderRequest.Invalid.quantity(-5).description == "quantity -5 must be more than 0")
        #expect(OrderRequest.Invalid.price(field: "limit", 0).description == "limit price 0 must be more than 0")
    }

    @Test(arguments: [
        OrderType.market, .limit(150), .stop(140), .stopLimit(stop: 140, limit: 139),
    ])
    func roundTripsThroughJSONWithExactPrices(_ type: OrderType) throws {
        let original = try OrderRequest(
            symbol: "MSFT", side: .sellShort, quantity: 3, type: type, timeInForce: .gtc, clientOrderID: ClientOrderID("c-9"))
        let json = try JSONEncoder().encode(original)
        #expect(try JSONDecoder().decode(OrderRequest.self, from: json) == original)
    }

    @Test func writesTheBrokersWords() throws {
        let order = try OrderRequest(
            symbol: "MSFT", side: .buyToCover, quantity: 3, type: .stopLimit(stop: 140, limit: decimal("139.25")),
            timeInForce: .gtc, clientOrderID: ClientOrderID("c-9"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let text = String(decoding: try encoder.encode(order), as: UTF8.self)
        #expect(text == #"{"clientOrderID":"c-9","quantity":"3","side":"buy_to_cover","symbol":"MSFT","timeInForce":"gtc","type":{"limit":"139.25","stop":"140","type":"stop_limit"}}"#)
    }

    @Test(arguments: [
        #"{"clientOrderID":"c","quantity":"0","side":"buy","symbol":"MSFT","timeInForce":"day","type":{"type":"market"}}"#,
        #"{"clientOrderID":"c","quantity":"1","side":"buy","symbol":"MS FT","timeInForce":"day","type":{"type":"market"}}"#,
        #"{"clientOrderID":"c","quantity":"1","side":"buy","symbol":"MSFT","timeInForce":"day","type":{"type":"limit"}}"#,
        #"{"clientOrderID":"c","quantity":"1","side":"buy","symbol":"MSFT","timeInForce":"day","type":{"type":"trailing_stop"}}"#,
        #"{"clientOrderID":"c","quantity":"1","side":"hold","symbol":"MSFT","timeInForce":"day","type":{"type":"market"}}"#,
        #"{"clientOrderID":"c","quantity":"1","side":"buy","symbol":"MSFT","timeInForce":"ioc","type":{"type":"market"}}"#,
    ])
    func refusesToDecodeAnOrderTheTicketCouldNotMake(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OrderRequest.self, from: Data(json.utf8)) }
    }

    @Test func changesTypeWhenAStopTriggers() throws {
        let stop = try request(type: .stop(140))
        let market = try stop.with(type: .market)
        #expect(market.type == .market && market.symbol == stop.symbol && market.clientOrderID == stop.clientOrderID)
        #expect(OrderType.stopLimit(stop: 1, limit: 2).stopPrice == 1 && OrderType.stopLimit(stop: 1, limit: 2).limitPrice == 2)
        #expect(OrderType.market.limitPrice == nil && OrderType.limit(3).stopPrice == nil)
    }
}

@Suite struct OrderStatusTests {
    @Test(arguments: [
        OrderStatus.pending, .accepted, .partiallyFilled, .filled, .cancelled, .expired,
        .rejected(reason: "insufficient buying power"), .replaced,
    ])
    func roundTripsThroughJSON(_ status: OrderStatus) throws {
        let json = try JSONEncoder().encode(status)
        #expect(try JSONDecoder().decode(OrderStatus.self, from: json) == status)
    }

    @Test func keepsTheRejectReasonWithTheRejection() throws {
        let request = try OrderRequest(symbol: "AAPL", side: .buy, quantity: 1, type: .market, timeInForce: .day, clientOrderID: ClientOrderID("c"))
        let when = Date(timeIntervalSince1970: 0)
        var order = Order(request: request, id: OrderID("o-1"), status: .accepted, createdAt: when, updatedAt: when)
        #expect(order.rejectReason == nil && order.remainingQuantity == 1 && order.symbol == "AAPL" && order.side == .buy)
        order.status = .rejected(reason: "market closed")
        #expect(order.rejectReason == "market closed")
        let json = try JSONEncoder().encode(order)
        #expect(try JSONDecoder().decode(Order.self, from: json) == order)
    }

    @Test func filtersOpenFromClosed() {
        let all: [OrderStatus] = [.pending, .accepted, .partiallyFilled, .filled, .cancelled, .expired, .rejected(reason: "x"), .replaced]
        #expect(all.filter(OrderStatusFilter.open.includes) == [.pending, .accepted, .partiallyFilled])
        #expect(all.filter(OrderStatusFilter.closed.includes) == [.filled, .cancelled, .expired, .rejected(reason: "x"), .replaced])
        #expect(all.filter(OrderStatusFilter.all.includes) == all)
    }

    @Test func sidesKnowWhichWayTheyTrade() {
        #expect(OrderSide.allCases.filter(\.isBuy) == [.buy, .buyToCover])
        #expect(OrderSide.sellShort.rawValue == "sell_short" && OrderSide.buyToCover.displayName == "buy to cover")
    }
}

@Suite struct PositionValuationTests {
    @Test func valuesALongPosition() throws {
        let position = try Position(brokerID: "paper", symbol: "AAPL", quantity: 10, averageCost: decimal("150.25"), costBasis: decimal("1502.5"))
        let valued = try position.valued(at: decimal("160.25"))
        #expect(valued.marketValue == (try decimal("1602.5")))
        #expect(valued.unrealizedPnL == 100)
        // 100 / 1502.5 = 6.65557404…%
        #expect(valued.unrealizedPnLPercent == (try decimal("6.65557404")))
        #expect(valued.lastPrice == (try decimal("160.25")) && !valued.isShort)
    }

    @Test func valuesAShortPositionWithAGainWhenThePriceFalls() throws {
        let short = Position(brokerID: "paper", symbol: "TSLA", quantity: -10, averageCost: 50, costBasis: -500)
        let valued = try short.valued(at: 45)
        #expect(valued.marketValue == -450 && valued.unrealizedPnL == 50 && valued.unrealizedPnLPercent == 10)
        #expect(try short.valued(at: 55).unrealizedPnL == -50)
        #expect(valued.isShort)
    }

    @Test func leavesThePercentOutWithoutACostAndReportsOverflow() throws {
        let free = Position(brokerID: "paper", symbol: "GIFT", quantity: 10, averageCost: 0, costBasis: 0)
        #expect(try free.valued(at: 5).unrealizedPnLPercent == nil)
        let huge = Position(brokerID: "paper", symbol: "BIG", quantity: 1_000_000_000, averageCost: 1, costBasis: 1_000_000_000)
        #expect(throws: ExactDecimal.ArithmeticError.self) { try huge.valued(at: 1_000) }
    }
}

@Suite struct TradingBrokerErrorTests {
    @Test func orderRefusalsSayWhyAndAreNotRetried() {
        let rejected = BrokerError.orderRejected(reason: "market closed")
        let broke = BrokerError.insufficientBuyingPower("needs $1502.50, has $1000.00")
        #expect(rejected.description == "order rejected: market closed" && rejected.shortReason == "order rejected")
        #expect(broke.description == "insufficient buying power: needs $1502.50, has $1000.00")
        #expect(broke.shortReason == "insufficient buying power")
        #expect(rejected.isPermanent && broke.isPermanent)
    }
}
