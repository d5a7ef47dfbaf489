import Domain
import Foundation
import TextSafety

/// One order as `GET /v1/accounts/{id}/orders` and `GET /v1/accounts/{id}/orders/{order_id}` write it.
/// Fields and their words are Tradier's Orders response docs (documentation.tradier.com, brokerage-api
/// reference/response/orders): `status` one of open, partially_filled, filled, expired, canceled, pending,
/// rejected, error; `duration` day, pre, post or gtc; `class` equity, option, combo or multileg;
/// `reason_description` the rejection details; `tag` our client order id (sent back only with
/// `includeTags=true`). Quantities and prices are JSON numbers (`"quantity":50.00000000`), read exactly
/// from their digits; an unfilled order prints `"avg_fill_price":0.00000000`.
public struct TradierOrder: Decodable, Sendable, Hashable {
    public var id: FlexibleIdentifier
    public var type: String
    public var symbol: String
    public var side: String
    public var quantity: ExactDecimal
    public var status: String
    public var duration: String
    /// The limit price.
    public var price: ExactDecimal?
    public var stopPrice: ExactDecimal?
    public var averageFillPrice: ExactDecimal?
    public var executedQuantity: ExactDecimal?
    public var createDate: String
    public var transactionDate: String?
    public var orderClass: String
    public var tag: String?
    public var reasonDescription: String?

    enum CodingKeys: String, CodingKey {
        case id, type, symbol, side, quantity, status, duration, price, tag
        case stopPrice = "stop_price"
        case averageFillPrice = "avg_fill_price"
        case executedQuantity = "exec_quantity"
        case createDate = "create_date"
        case transactionDate = "transaction_date"
        case orderClass = "class"
        case reasonDescription = "reason_description"
    }

    /// The neutral order, or nil for one that is not a single equity order (options and multi-leg orders
    /// have no place in this app's order vocabulary). Throws `.badResponse` naming the order and the field
    /// for anything malformed.
    public func order() throws(BrokerError) -> Order? {
        guard orderClass == "equity" else { return nil }
        guard let orderSide = OrderSide(rawValue: side) else {
            throw malformed("side \"\(escaped(side))\" is not buy, sell, sell_short or buy_to_cover")
        }
        let orderType: OrderType
        switch type {
        case "market": orderType = .market
        case "limit": orderType = .limit(try required(price, "price"))
        case "stop": orderType = .stop(try required(stopPrice, "stop_price"))
        case "stop_limit": orderType = .stopLimit(stop: try required(stopPrice, "stop_price"), limit: try required(price, "price"))
        default: throw malformed("type \"\(escaped(type))\" is not market, limit, stop or stop_limit")
        }
        let timeInForce: TimeInForce
        switch duration {
        case "gtc": timeInForce = .gtc
        // Pre- and post-market orders end with their session, the same day.
        case "day", "pre", "post": timeInForce = .day
        default: throw malformed("duration \"\(escaped(duration))\" is not day, gtc, pre or post")
        }
        let request: OrderRequest
        do throws(OrderRequest.Invalid) {
            request = try OrderRequest(
                symbol: TradierSymbol.domain(symbol), side: orderSide, quantity: quantity, type: orderType,
                timeInForce: timeInForce, clientOrderID: ClientOrderID(tag ?? ""))
        } catch {
            throw malformed(error.description)
        }
        guard let created = RFC3339.date(from: createDate) else {
            throw malformed("create_date \"\(escaped(createDate))\" is not RFC 3339")
        }
        var updated = created
        if let transactionDate {
            guard let date = RFC3339.date(from: transactionDate) else {
                throw malformed("transaction_date \"\(escaped(transactionDate))\" is not RFC 3339")
            }
            updated = date
        }
        let filled = executedQuantity ?? .zero
        return Order(
            request: request, id: OrderID(id.text), status: try orderStatus(filled: filled), filledQuantity: filled,
            averageFillPrice: filled.isPositive ? averageFillPrice : nil, createdAt: created, updatedAt: updated)
    }

    private func orderStatus(filled: ExactDecimal) throws(BrokerError) -> OrderStatus {
        switch status {
        case "pending": return .pending
        case "open": return filled.isPositive ? .partiallyFilled : .accepted
        case "partially_filled": return .partiallyFilled
        case "filled": return .filled
        case "expired": return .expired
        case "canceled": return .cancelled
        case "rejected": return .rejected(reason: reason(or: "rejected by Tradier (no reason given)"))
        case "error": return .rejected(reason: reason(or: "Tradier reported an error with this order (no detail given)"))
        default: throw malformed("status \"\(escaped(status))\" is unknown")
        }
    }

    private func reason(or fallback: String) -> String {
        guard let reasonDescription, !reasonDescription.trimmingCharacters(in: .whitespaces).isEmpty else { return fallback }
        return reasonDescription
    }

    private func required(_ price: ExactDecimal?, _ field: String) throws(BrokerError) -> ExactDecimal {
        guard let price else { throw malformed("a \(escaped(type)) order without \(field)") }
        return price
    }

    private func escaped(_ text: String) -> String {
        VisibleText.escaped(String(text.prefix(40)))
    }

    private func malformed(_ detail: String) -> BrokerError {
        .badResponse("\(TradierRequestFactory.brokerID): order \(escaped(id.text)): \(detail)")
    }
}
