import Domain
import Foundation
import Networking
import TextSafety

/// The JSON bodies of `POST /v2/orders` and `PATCH /v2/orders/{id}`, written by hand in a fixed key order
/// so the bytes are known (and tested) exactly. Quantities and prices are JSON strings holding the exact
/// decimal text (`"limit_price":"150.25"`), which Alpaca documents as `string<number>` (reference §8.1), so
/// no price passes through a binary float on the way out either.
///
/// Sides: Alpaca takes `buy` or `sell` and tells opening a short from closing a long by the position, so
/// "sell short" is sent as `sell` and "buy to cover" as `buy` (`position_intent` is documented for options
/// and optional for equities; it is not sent).
enum AlpacaOrderBody {
    /// Alpaca refuses a longer `client_order_id` (its order docs: "<= 48 characters").
    static let clientOrderIDLimit = 48

    /// `{"symbol":"AAPL","qty":"10","side":"buy","type":"limit","time_in_force":"day","limit_price":"150.25","client_order_id":"c-1"}`.
    static func place(_ order: OrderRequest) -> Result<Data, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            var fields: [(String, String)] = [
                ("symbol", order.symbol), ("qty", order.quantity.description), ("side", order.side.isBuy ? "buy" : "sell"),
                ("type", order.type.name), ("time_in_force", order.timeInForce.rawValue),
            ]
            fields += prices(order.type)
            fields += try clientOrderID(order.clientOrderID)
            return object(fields)
        }
    }

    /// `{"qty":"5","time_in_force":"gtc","limit_price":"151","client_order_id":"c-2"}`: what a replace may
    /// change. Alpaca keeps the symbol, side and type of the order it replaces.
    static func replace(_ order: OrderRequest) -> Result<Data, RequestConstructionError> {
        Result { () throws(RequestConstructionError) in
            var fields: [(String, String)] = [("qty", order.quantity.description), ("time_in_force", order.timeInForce.rawValue)]
            fields += prices(order.type)
            fields += try clientOrderID(order.clientOrderID)
            return object(fields)
        }
    }

    private static func prices(_ type: OrderType) -> [(String, String)] {
        var fields: [(String, String)] = []
        if let limit = type.limitPrice { fields.append(("limit_price", limit.description)) }
        if let stop = type.stopPrice { fields.append(("stop_price", stop.description)) }
        return fields
    }

    /// Sent when there is one (Alpaca makes its own otherwise); refused before sending when Alpaca would.
    private static func clientOrderID(_ id: ClientOrderID) throws(RequestConstructionError) -> [(String, String)] {
        guard !id.rawValue.isEmpty else { return [] }
        guard id.rawValue.count <= clientOrderIDLimit else {
            throw .invalidOrder(reason: "client order id \"\(VisibleText.escaped(String(id.rawValue.prefix(60))))\" has \(id.rawValue.count) characters; Alpaca takes at most \(clientOrderIDLimit)")
        }
        return [("client_order_id", id.rawValue)]
    }

    private static func object(_ fields: [(String, String)]) -> Data {
        let members = fields.map { "\(JSONStringLiteral.quoted($0.0)):\(JSONStringLiteral.quoted($0.1))" }
        return Data("{\(members.joined(separator: ","))}".utf8)
    }
}
