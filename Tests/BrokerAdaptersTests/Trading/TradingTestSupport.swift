import BrokerAdapters
import Domain
import Foundation
import Networking

/// Small helpers the trading tests share.
enum TradingTestSupport {
    /// The error `body` throws, or nil when it returns.
    static func thrown<T>(_ body: () async throws(BrokerError) -> T) async -> BrokerError? {
        do throws(BrokerError) {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    /// An order request that must be valid (a mistake in the test otherwise).
    static func request(
        _ symbol: String, _ side: OrderSide, _ quantity: String, _ type: OrderType, _ timeInForce: TimeInForce = .day,
        clientOrderID: String
    ) -> OrderRequest {
        do {
            return try OrderRequest(
                symbol: symbol, side: side, quantity: exactDecimal(quantity), type: type, timeInForce: timeInForce,
                clientOrderID: ClientOrderID(clientOrderID))
        } catch {
            preconditionFailure("invalid test order: \(error)")
        }
    }

    /// An RFC 3339 time as the brokers write it (`RFC3339`, tested on its own).
    static func date(_ text: String) -> Date {
        guard let date = RFC3339.date(from: text) else { preconditionFailure("\(text) is not a test date") }
        return date
    }

    /// The body a request carries, as text.
    static func body(_ request: HTTPRequest?) -> String? {
        request?.body.map { String(decoding: $0, as: UTF8.self) }
    }
}
