import Domain
import Foundation
import PaperTrading
import Testing

/// An exact decimal from text the test writes; a typo fails the test instead of trapping.
func d(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ExactDecimal {
    try #require(ExactDecimal(parsing: text), "\(text) should parse", sourceLocation: sourceLocation)
}

let epoch = Date(timeIntervalSince1970: 1_790_000_000)

func quote(bid: String?, ask: String?, last: String) throws -> QuoteSnapshot {
    QuoteSnapshot(bid: try bid.map { try d($0) }, ask: try ask.map { try d($0) }, last: try d(last), time: epoch)
}

func order(
    _ side: OrderSide, _ quantity: ExactDecimal, _ type: OrderType = .market, symbol: String = "AAPL",
    timeInForce: TimeInForce = .day
) throws -> OrderRequest {
    try OrderRequest(symbol: symbol, side: side, quantity: quantity, type: type, timeInForce: timeInForce, clientOrderID: ClientOrderID("c"))
}

func fill(
    _ side: OrderSide, _ quantity: ExactDecimal, at price: ExactDecimal, symbol: String = "AAPL",
    commission: ExactDecimal = 0, orderID: String = "o"
) -> Fill {
    Fill(
        id: FillID("f-\(orderID)"), orderID: OrderID(orderID), symbol: symbol, side: side, quantity: quantity,
        price: price, commission: commission, time: epoch, priceSource: side.isBuy ? .ask : .bid)
}
