import Domain
import Foundation
import Networking
import TextSafety

/// Tradier's positions and orders, AdapterStack-style (design doc 001): `PositionService` and
/// `OrderService` are implemented once, in this protocol's extension, over the primitives it declares; a
/// provider (`TradierBroker`) lists them once; a use site that takes `some OrderService` reaches nothing
/// else. Each endpoint is also a `Service` box (design doc 003, `TradingBoxes`) built from the factory and
/// the one servicer, and the protocol methods call the boxes.
///
/// Every call works in one account: `accountID`, or when that is nil the profile's only account (one
/// `GET /v1/user/profile` first, as the balances code finds accounts). A profile with several accounts and
/// none chosen is refused rather than guessed: an order in the wrong account is worse than none.
public protocol TradierTradingStack: BoxedTradingStack {
    /// The one door every request goes through (live, recording or replaying).
    var servicer: any RequestServicer { get }
    var factory: TradierRequestFactory { get }
    /// Allows orders to the sandbox always, to the live API only when the run says so.
    var liveTradingGuard: LiveTradingGuard { get }
    /// Stamps orders Tradier acknowledges without dates; dates `X-Ratelimit-Expiry`.
    var now: @Sendable () -> Date { get }
    /// The account number to trade in; nil for the profile's only account.
    var accountID: String? { get }
}

extension TradierTradingStack {
    var exchange: TradierExchange {
        TradierExchange(servicer: servicer, now: now)
    }

    /// `GET /v1/accounts/{id}/positions` as a box.
    public var listPositions: TradingBoxes.ListPositions {
        let exchange = exchange, factory = factory, accountID = accountID, brokerID = branding.id
        return Service { _ in
            await .of { () async throws(BrokerError) in
                let account = try await Self.tradingAccount(accountID, exchange: exchange, factory: factory)
                return try await exchange.perform(factory.positions(accountID: account)).positionList
                    .map { wire throws(BrokerError) in try wire.position(brokerID: brokerID) }
            }
        }
    }

    /// `GET /v1/accounts/{id}/orders` as a box: the session's single-equity orders in the filter's group
    /// (Tradier filters nothing itself), newest first.
    public var listOrders: TradingBoxes.ListOrders {
        let exchange = exchange, factory = factory, accountID = accountID
        return Service { status in
            await .of { () async throws(BrokerError) in
                let account = try await Self.tradingAccount(accountID, exchange: exchange, factory: factory)
                var orders: [Order] = []
                for wire in try await exchange.perform(factory.orders(accountID: account)).orderList {
                    if let order = try wire.order(), status.includes(order.status) { orders.append(order) }
                }
                return orders.sorted { $0.createdAt > $1.createdAt }
            }
        }
    }

    /// `POST /v1/accounts/{id}/orders` as a box. Tradier answers with the new order's id only, so the order
    /// returned is the request with that id, `.pending`, stamped now. Refused before anything is sent (the
    /// profile look-up included) when it would reach the live API and live trading is off.
    public var placeOrder: TradingBoxes.PlaceOrder {
        let exchange = exchange, factory = factory, accountID = accountID, liveTrading = liveTradingGuard, now = now
        return Service { request in
            await .of { () async throws(BrokerError) in
                try liveTrading.permit(factory.baseURL)
                let account = try await Self.tradingAccount(accountID, exchange: exchange, factory: factory)
                let ack = try await exchange.perform(factory.placeOrder(accountID: account, request), .changeOrder(liveTrading))
                try Self.accepted(ack, doing: "placing the order")
                let stamp = now()
                return Order(request: request, id: OrderID(ack.order.id.text), status: .pending, createdAt: stamp, updatedAt: stamp)
            }
        }
    }

    /// `DELETE /v1/accounts/{id}/orders/{order_id}` as a box; the guard as for `placeOrder`.
    public var cancelOrder: TradingBoxes.CancelOrder {
        let exchange = exchange, factory = factory, accountID = accountID, liveTrading = liveTradingGuard
        return Service { id in
            await .of { () async throws(BrokerError) in
                try liveTrading.permit(factory.baseURL)
                let account = try await Self.tradingAccount(accountID, exchange: exchange, factory: factory)
                let ack = try await exchange.perform(factory.cancelOrder(accountID: account, id: id), .changeOrder(liveTrading))
                try Self.accepted(ack, doing: "cancelling order \(VisibleText.escaped(id.rawValue))")
            }
        }
    }

    /// Tradier's "Modify an Order" (`PUT /v1/accounts/{id}/orders/{order_id}`) as a box. It changes an
    /// order's type, prices and duration, not its symbol, side or quantity, so the order is read first
    /// (`GET …/orders/{order_id}`) and a replacement that changes those is refused before the `PUT`. The
    /// order keeps its id; the one returned is `.pending` until Tradier lists it changed. An order no longer
    /// open is refused the same way. The guard as for `placeOrder`.
    public var replaceOrder: TradingBoxes.ReplaceOrder {
        let exchange = exchange, factory = factory, accountID = accountID, liveTrading = liveTradingGuard, now = now
        return Service { replacement in
            await .of { () async throws(BrokerError) in
                try liveTrading.permit(factory.baseURL)
                let account = try await Self.tradingAccount(accountID, exchange: exchange, factory: factory)
                let wire = try await exchange.perform(factory.order(accountID: account, id: replacement.id)).order
                guard let current = try wire.order() else {
                    throw .orderRejected(reason: "order \(VisibleText.escaped(replacement.id.rawValue)) is not a single equity order; change it at Tradier")
                }
                guard current.status.isOpen else {
                    throw .orderRejected(reason: "order \(VisibleText.escaped(replacement.id.rawValue)) is \(current.status.name), not open; nothing to change")
                }
                let wanted = replacement.request
                guard wanted.symbol == current.symbol, wanted.side == current.side, wanted.quantity == current.request.quantity else {
                    throw .orderRejected(reason: "Tradier changes only an order's type, prices and duration; to change its symbol, side or quantity, cancel it and place a new one")
                }
                let ack = try await exchange.perform(
                    factory.modifyOrder(accountID: account, id: replacement.id, wanted), .changeOrder(liveTrading))
                try Self.accepted(ack, doing: "changing order \(VisibleText.escaped(replacement.id.rawValue))")
                let changed: OrderRequest
                do throws(OrderRequest.Invalid) {
                    changed = try OrderRequest(
                        symbol: current.symbol, side: current.side, quantity: current.request.quantity, type: wanted.type,
                        timeInForce: wanted.timeInForce, clientOrderID: current.request.clientOrderID)
                } catch {
                    throw .orderRejected(reason: error.description)
                }
                return Order(
                    request: changed, id: current.id, status: .pending, filledQuantity: current.filledQuantity,
                    averageFillPrice: current.averageFillPrice, createdAt: current.createdAt, updatedAt: now())
            }
        }
    }

    /// `accountID`, else the profile's only account.
    static func tradingAccount(_ accountID: String?, exchange: TradierExchange, factory: TradierRequestFactory) async throws(BrokerError) -> String {
        if let accountID { return accountID }
        let accounts = try await exchange.perform(factory.profile()).profile.accounts.map(\.accountNumber)
        switch accounts.count {
        case 1: return accounts[0]
        case 0: throw .badResponse("\(TradierRequestFactory.brokerID): the profile lists no account to trade in")
        default:
            let listed = accounts.map { VisibleText.escaped($0) }.joined(separator: ", ")
            throw .badResponse("\(TradierRequestFactory.brokerID): the profile lists \(accounts.count) accounts (\(listed)); choose the one to trade in (the broker's account setting)")
        }
    }

    /// Tradier's acknowledgement says `ok`; anything else is the change not taken.
    static func accepted(_ ack: TradierOrderAckEnvelope, doing what: String) throws(BrokerError) {
        guard ack.order.status == "ok" else {
            throw .orderRejected(reason: "Tradier answered \"\(VisibleText.escaped(String(ack.order.status.prefix(40))))\" to \(what)")
        }
    }
}
