import Domain
import Foundation
import Networking
import TextSafety

/// Alpaca's positions and orders, AdapterStack-style (design doc 001): the capabilities (`PositionService`,
/// `OrderService`) are implemented once, in this protocol's extension, over the primitives it declares.
/// A provider (`AlpacaBroker`) lists those primitives once; a use site that takes `some OrderService` sees
/// only the order methods, never the servicer or the factory.
///
/// Each endpoint is also a `Service` box (design doc 003, `TradingBoxes`) built from the factory and the
/// one servicer; the protocol methods call the boxes, so a screen handed a box and a screen handed the
/// broker send the same requests. Everything goes to the trading API host (`api.alpaca.markets`, paper
/// `paper-api.alpaca.markets`, or the `alpaca-trading` base URL override), the one `GET /v2/account` uses.
public protocol AlpacaTradingStack: BoxedTradingStack {
    /// The one door every request goes through (live, recording or replaying).
    var servicer: any RequestServicer { get }
    var factory: AlpacaRequestFactory { get }
    /// Allows orders to paper trading always, to the live account only when the run says so.
    var liveTradingGuard: LiveTradingGuard { get }
    /// Dates rate-limit reset headers.
    var now: @Sendable () -> Date { get }
}

extension AlpacaTradingStack {
    var exchange: AlpacaExchange {
        AlpacaExchange(servicer: servicer, secrets: factory.credentials.secretValues, now: now)
    }

    /// `GET /v2/positions` as a box.
    public var listPositions: TradingBoxes.ListPositions {
        let exchange = exchange, factory = factory, brokerID = branding.id
        return Service { _ in
            await .of { () async throws(BrokerError) in
                try await exchange.perform(factory.positions()).map { wire throws(BrokerError) in try wire.position(brokerID: brokerID) }
            }
        }
    }

    /// `GET /v2/orders?status=…` as a box: the orders this app can show (US equities by share count),
    /// newest first.
    public var listOrders: TradingBoxes.ListOrders {
        let exchange = exchange, factory = factory
        return Service { status in
            await .of { () async throws(BrokerError) in
                var orders: [Order] = []
                for wire in try await exchange.perform(factory.orders(status: status)) {
                    if let order = try wire.order(), status.includes(order.status) { orders.append(order) }
                }
                return orders.sorted { $0.createdAt > $1.createdAt }
            }
        }
    }

    /// `POST /v2/orders` as a box. Refused before anything is sent when it would reach the live account
    /// and live trading is off.
    public var placeOrder: TradingBoxes.PlaceOrder {
        let exchange = exchange, factory = factory, liveTrading = liveTradingGuard
        return Service { request in
            await .of { () async throws(BrokerError) in
                try liveTrading.permit(factory.tradingBaseURL)
                let wire = try await exchange.perform(factory.placeOrder(request), .changeOrder(liveTrading))
                return try Self.representable(wire, requestedSide: request.side)
            }
        }
    }

    /// `PATCH /v2/orders/{id}` as a box; the guard as for `placeOrder`.
    public var replaceOrder: TradingBoxes.ReplaceOrder {
        let exchange = exchange, factory = factory, liveTrading = liveTradingGuard
        return Service { replacement in
            await .of { () async throws(BrokerError) in
                try liveTrading.permit(factory.tradingBaseURL)
                let wire = try await exchange.perform(
                    factory.replaceOrder(replacement.id, with: replacement.request), .changeOrder(liveTrading))
                return try Self.representable(wire, requestedSide: replacement.request.side)
            }
        }
    }

    /// `DELETE /v2/orders/{id}` as a box; the guard as for `placeOrder`.
    public var cancelOrder: TradingBoxes.CancelOrder {
        let exchange = exchange, factory = factory, liveTrading = liveTradingGuard
        return Service { id in
            await .of { () async throws(BrokerError) in
                try liveTrading.permit(factory.tradingBaseURL)
                try await exchange.perform(factory.cancelOrder(id), .changeOrder(liveTrading))
            }
        }
    }

    /// The order Alpaca answered with; one this app cannot show means Alpaca took something else than was
    /// sent, which the caller must hear about.
    static func representable(_ wire: AlpacaOrder, requestedSide: OrderSide) throws(BrokerError) -> Order {
        guard let order = try wire.order(requestedSide: requestedSide) else {
            throw .badResponse("alpaca: the answer describes order \(VisibleText.escaped(String(wire.id.prefix(40)))) as a \(VisibleText.escaped(wire.assetClass ?? "?")) order by amount or trailing stop, not the order sent")
        }
        return order
    }
}
