import Domain
import Foundation
import Networking
import TextSafety

/// What Finnhub's answers mean: statuses and bodies to `BrokerError`, wire quotes to `CommonQuote`.
enum FinnhubResponseMapping {
    /// A 403 on a key that works elsewhere means the endpoint or market is premium (reference §4.1).
    static let planHint = "your Finnhub plan does not include this data"

    /// nil for 2xx. 401 is a bad or missing key; 403 is a plan restriction, so its hint points at the plan
    /// instead of the key. Everything else is mapped the same way for every broker.
    static func error(for response: HTTPResponse, credentialHint: String) -> BrokerError? {
        switch response.status {
        case 401: .unauthorized(hint: credentialHint)
        case 403: .unauthorized(hint: planHint)
        default: HTTPStatusMapping.error(for: response, credentialHint: credentialHint)
        }
    }

    /// Decodes a 2xx quote body; anything else is a short, printable excerpt in a `.badResponse`.
    @Sendable static func decodeQuote(_ response: HTTPResponse) throws(BrokerError) -> FinnhubQuote {
        let decoder = JSONDecoder()
        if let quote = try? decoder.decode(FinnhubQuote.self, from: response.body) { return quote }
        if let body = try? decoder.decode(FinnhubErrorBody.self, from: response.body) {
            throw .badResponse("finnhub: \(VisibleText.escaped(String(body.error.prefix(80))))")
        }
        throw .badResponse("not a Finnhub quote: \(response.bodyExcerpt(limit: 80))")
    }

    /// The quote for `symbol` (as the user wrote it). Finnhub has no bid, ask or volume on this endpoint.
    static func quote(from wire: FinnhubQuote, symbol: String) -> Result<CommonQuote, BrokerError> {
        if wire.hasNoData { return .failure(.unknownSymbol(symbol)) }
        return .success(CommonQuote(
            symbol: symbol, last: wire.current,
            timestamp: Date(timeIntervalSince1970: TimeInterval(wire.time)),
            // Zero is Finnhub's "none" (a first trading day has no previous close).
            previousClose: wire.previousClose.isPositive ? wire.previousClose : nil
        ))
    }
}
