import Domain
import Foundation
import Networking

/// Alpaca's non-2xx answers as `BrokerError`s. Mostly the shared `HTTPStatusMapping`, plus what only the
/// body says: a free plan asking for SIP data gets the same 403 as bad keys, and fixing it means changing
/// the feed, not the keys.
enum AlpacaErrorMapping {
    static let sipHint = "your Alpaca plan does not include SIP data; set feed to iex"

    /// nil for 2xx.
    static func error(for response: HTTPResponse, credentialHint: String, now: Date) -> BrokerError? {
        guard !(200..<300).contains(response.status) else { return nil }
        let body = AlpacaErrorBody.decode(response.body)
        switch response.status {
        case 403 where body.map(isSIPRefusal) ?? false:
            // 403 {"message":"subscription does not permit querying recent SIP data"} (reference §3.1).
            return .unauthorized(hint: sipHint)
        case 401, 403, 404, 429, 500..<600:
            return HTTPStatusMapping.error(for: response, credentialHint: credentialHint, now: now)
        default:
            // 400/422 explain themselves ("invalid symbol", "invalid feed"); say what Alpaca said.
            guard let message = body?.message else {
                return HTTPStatusMapping.error(for: response, credentialHint: credentialHint, now: now)
            }
            return .badResponse("HTTP \(response.status): \(excerpt(message))")
        }
    }

    /// nil for 2xx. For requests that place, replace or cancel an order, where Alpaca's refusals are about
    /// the order (reference §8.1, Alpaca's order docs): 403 with a message other than an authorization
    /// failure is the account refusing it ("insufficient buying power" → `.insufficientBuyingPower`, e.g.
    /// "insufficient qty available for order" → `.orderRejected`); 400 and 422 (invalid parameters, "order
    /// is not cancelable") and 404 (no such order) carry the reason in `message`. 401, a 403 without a
    /// message or saying "forbidden." / "not authorized", 429 and 5xx map as for every request.
    static func orderError(for response: HTTPResponse, credentialHint: String, now: Date) -> BrokerError? {
        guard !(200..<300).contains(response.status) else { return nil }
        guard let body = AlpacaErrorBody.decode(response.body) else {
            return HTTPStatusMapping.error(for: response, credentialHint: credentialHint, now: now)
        }
        switch response.status {
        case 403 where isAuthorizationRefusal(body):
            return .unauthorized(hint: credentialHint)
        case 403 where isBuyingPowerRefusal(body):
            return .insufficientBuyingPower(buyingPowerDetail(body))
        case 400, 403, 404, 422:
            return .orderRejected(reason: excerpt(body.message))
        default:
            return HTTPStatusMapping.error(for: response, credentialHint: credentialHint, now: now)
        }
    }

    /// The 403s that are about the keys, not the order: `{"message":"forbidden."}` (reference §3.1) and
    /// "request is not authorized".
    private static func isAuthorizationRefusal(_ body: AlpacaErrorBody) -> Bool {
        let message = body.message.lowercased()
        return message.contains("forbidden") || message.contains("not authorized") || message.contains("unauthorized")
    }

    private static func isBuyingPowerRefusal(_ body: AlpacaErrorBody) -> Bool {
        body.message.lowercased().contains("buying power")
    }

    /// "the order needs 48640000, the account has 176531.28 of buying power" when Alpaca says both (as
    /// decimals), else its message.
    private static func buyingPowerDetail(_ body: AlpacaErrorBody) -> String {
        guard let costText = body.costBasis, let cost = ExactDecimal(parsing: costText),
              let powerText = body.buyingPower, let power = ExactDecimal(parsing: powerText)
        else { return excerpt(body.message) }
        return "the order needs \(cost), the account has \(power) of buying power"
    }

    private static func isSIPRefusal(_ body: AlpacaErrorBody) -> Bool {
        let message = body.message.lowercased()
        return message.contains("sip") && message.contains("subscription")
    }

    /// At most 80 characters of a server message, control characters removed.
    static func excerpt(_ text: String, limit: Int = 80) -> String {
        HTTPResponse(status: 0, body: Data(text.utf8)).bodyExcerpt(limit: limit)
    }
}
