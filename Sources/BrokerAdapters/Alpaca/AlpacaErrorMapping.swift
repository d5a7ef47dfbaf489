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

    private static func isSIPRefusal(_ body: AlpacaErrorBody) -> Bool {
        let message = body.message.lowercased()
        return message.contains("sip") && message.contains("subscription")
    }

    /// At most 80 characters of a server message, control characters removed.
    static func excerpt(_ text: String, limit: Int = 80) -> String {
        HTTPResponse(status: 0, body: Data(text.utf8)).bodyExcerpt(limit: limit)
    }
}
