import Domain
import Foundation
import TextSafety

/// An order object of the trading API: an element of `GET /v2/orders`, and the answer to `POST /v2/orders`
/// and `PATCH /v2/orders/{id}`. Quantities and prices are decimal JSON strings or `null`
/// (`"filled_avg_price":null` until something fills), read straight into `ExactDecimal`; times are RFC 3339
/// with up to 9 fraction digits. Shapes: Alpaca's Trading API reference (Orders), reference §8.1, and the
/// field list of Alpaca's own client `alpacahq/alpaca-ts:lib/entities/order.ts`. Fields this app does not
/// show (`asset_id`, `legs`, `hwm`, the other timestamps, …) are ignored.
public struct AlpacaOrder: Decodable, Sendable, Hashable {
    public let id: String
    public let clientOrderID: String?
    public let symbol: String
    /// `us_equity`, `us_option`, `crypto`.
    public let assetClass: String?
    /// nil for an order placed by dollar amount (`notional`).
    public let quantity: ExactDecimal?
    public let filledQuantity: ExactDecimal?
    public let filledAveragePrice: ExactDecimal?
    /// `market`, `limit`, `stop`, `stop_limit`, `trailing_stop`.
    public let type: String
    /// `buy` or `sell`.
    public let side: String
    /// `buy_to_open`, `buy_to_close`, `sell_to_open`, `sell_to_close`, where Alpaca sends it: the only field
    /// that tells a short sale from a sale.
    public let positionIntent: String?
    /// `day`, `gtc`, `opg`, `cls`, `ioc`, `fok`.
    public let timeInForce: String
    public let limitPrice: ExactDecimal?
    public let stopPrice: ExactDecimal?
    public let status: String
    public let createdAt: String
    public let updatedAt: String?

    enum CodingKeys: String, CodingKey {
        case id, symbol, type, side, status
        case clientOrderID = "client_order_id"
        case assetClass = "asset_class"
        case quantity = "qty"
        case filledQuantity = "filled_qty"
        case filledAveragePrice = "filled_avg_price"
        case positionIntent = "position_intent"
        case timeInForce = "time_in_force"
        case limitPrice = "limit_price"
        case stopPrice = "stop_price"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// Said as the reason of a rejected order: Alpaca's order object carries no reason of its own.
    static let rejectionWithoutReason = "rejected by Alpaca (no reason given; see the order in Alpaca's dashboard)"

    /// The neutral order, or nil for one this app's order vocabulary cannot hold: not a US equity, placed by
    /// dollar amount, or a trailing stop not yet priced. `requestedSide` is the side the caller asked for,
    /// kept when Alpaca's `buy`/`sell` agrees with it (Alpaca does not echo "sell short" unless it sends
    /// `position_intent`). Throws `.badResponse` naming the order and the field for anything malformed.
    public func order(requestedSide: OrderSide? = nil) throws(BrokerError) -> Order? {
        if let assetClass, assetClass != "us_equity" { return nil }
        guard let quantity else { return nil }
        let orderType: OrderType
        switch type {
        case "market": orderType = .market
        case "limit": orderType = .limit(try required(limitPrice, "limit_price"))
        case "stop": orderType = .stop(try required(stopPrice, "stop_price"))
        case "stop_limit": orderType = .stopLimit(stop: try required(stopPrice, "stop_price"), limit: try required(limitPrice, "limit_price"))
        // A trailing stop's `stop_price` is where it stands now; shown as that stop, it can still be cancelled.
        case "trailing_stop":
            guard let stopPrice else { return nil }
            orderType = .stop(stopPrice)
        default: throw malformed("type \"\(VisibleText.escaped(String(type.prefix(20))))\" is unknown")
        }
        let orderSide = try side(requested: requestedSide)
        let timeInForce: TimeInForce
        switch self.timeInForce {
        case "gtc": timeInForce = .gtc
        // Opening, closing, immediate-or-cancel and fill-or-kill orders all end within the day.
        case "day", "opg", "cls", "ioc", "fok": timeInForce = .day
        default: throw malformed("time_in_force \"\(VisibleText.escaped(String(self.timeInForce.prefix(20))))\" is unknown")
        }
        let filled = filledQuantity ?? .zero
        let request: OrderRequest
        do throws(OrderRequest.Invalid) {
            request = try OrderRequest(
                symbol: symbol, side: orderSide, quantity: quantity, type: orderType, timeInForce: timeInForce,
                clientOrderID: ClientOrderID(clientOrderID ?? ""))
        } catch {
            throw malformed(error.description)
        }
        guard let created = RFC3339.date(from: createdAt) else {
            throw malformed("created_at \"\(VisibleText.escaped(String(createdAt.prefix(40))))\" is not RFC 3339")
        }
        var updated = created
        if let updatedAt {
            guard let date = RFC3339.date(from: updatedAt) else {
                throw malformed("updated_at \"\(VisibleText.escaped(String(updatedAt.prefix(40))))\" is not RFC 3339")
            }
            updated = date
        }
        return Order(
            request: request, id: OrderID(id), status: try orderStatus(filled: filled, of: quantity),
            filledQuantity: filled, averageFillPrice: filled.isZero ? nil : filledAveragePrice,
            createdAt: created, updatedAt: updated)
    }

    /// Alpaca's order statuses (its order lifecycle docs): the working ones are open, the rest final.
    /// `done_for_day`, `stopped`, `suspended`, `pending_cancel` and `pending_replace` are still live orders.
    private func orderStatus(filled: ExactDecimal, of quantity: ExactDecimal) throws(BrokerError) -> OrderStatus {
        let working: OrderStatus = filled.isPositive ? .partiallyFilled : .accepted
        switch status {
        case "pending_new": return .pending
        case "new", "accepted", "accepted_for_bidding", "held", "pending_cancel", "pending_replace",
             "done_for_day", "stopped", "suspended":
            return working
        case "partially_filled": return .partiallyFilled
        case "filled": return .filled
        // Done for the day with settlement still being worked out: filled when every share is.
        case "calculated": return filled >= quantity ? .filled : working
        case "canceled": return .cancelled
        case "expired": return .expired
        case "replaced": return .replaced
        case "rejected": return .rejected(reason: Self.rejectionWithoutReason)
        default: throw malformed("status \"\(VisibleText.escaped(String(status.prefix(24))))\" is unknown")
        }
    }

    private func side(requested: OrderSide?) throws(BrokerError) -> OrderSide {
        let fromIntent: OrderSide? = switch positionIntent {
        case "buy_to_open"?: .buy
        case "buy_to_close"?: .buyToCover
        case "sell_to_open"?: .sellShort
        case "sell_to_close"?: .sell
        default: nil
        }
        let buys: Bool
        switch side {
        case "buy": buys = true
        case "sell": buys = false
        default: throw malformed("side \"\(VisibleText.escaped(String(side.prefix(20))))\" is not buy or sell")
        }
        if let fromIntent, fromIntent.isBuy == buys { return fromIntent }
        if let requested, requested.isBuy == buys { return requested }
        return buys ? .buy : .sell
    }

    private func required(_ price: ExactDecimal?, _ field: String) throws(BrokerError) -> ExactDecimal {
        guard let price else { throw malformed("a \(type) order without \(field)") }
        return price
    }

    private func malformed(_ detail: String) -> BrokerError {
        .badResponse("alpaca: order \(VisibleText.escaped(String(id.prefix(40)))): \(detail)")
    }
}
