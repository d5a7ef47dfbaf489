import Domain
import Foundation
import Networking
import TextSafety

/// What Polygon's answers mean: statuses and error bodies to `BrokerError`, snapshots to `CommonQuote`.
enum PolygonResponseMapping {
    /// 403 `NOT_AUTHORIZED` comes with a working key whose plan lacks the endpoint (reference §2.4).
    static let planHint = "your Polygon plan does not include this data"

    /// nil for 2xx. `symbol` is the one the request asked for, named by a not-found error.
    static func error(for response: HTTPResponse, symbol: String, credentialHint: String) -> BrokerError? {
        if (200..<300).contains(response.status) { return nil }
        let body = try? JSONDecoder().decode(PolygonErrorBody.self, from: response.body)
        switch (response.status, body?.status) {
        case (401, _):
            return .unauthorized(hint: credentialHint)
        case (_, "NOT_AUTHORIZED"):
            return .unauthorized(hint: planHint)
        // The unknown-ticker body is UNVERIFIED (reference §2.4, §7): probably a 404 with status
        // "NOT_FOUND". Either sign is taken to mean the ticker does not exist.
        case (404, _), (_, "NOT_FOUND"):
            return .unknownSymbol(symbol)
        // 400 `"error":"API Key was not provided"` (reference §2.4): a key problem, not a bad request.
        case (400, _) where body?.text?.localizedCaseInsensitiveContains("API Key") == true:
            return .unauthorized(hint: credentialHint)
        default:
            return HTTPStatusMapping.error(for: response, credentialHint: credentialHint)
        }
    }

    /// Decodes a 2xx snapshot body; anything else is a short, printable excerpt in a `.badResponse`.
    @Sendable static func decodeSnapshot(_ response: HTTPResponse) throws(BrokerError) -> PolygonSnapshotResponse {
        do {
            return try JSONDecoder().decode(PolygonSnapshotResponse.self, from: response.body)
        } catch {
            throw .badResponse("not a Polygon snapshot: \(response.bodyExcerpt(limit: 80))")
        }
    }

    /// The quote for `symbol` (as the user wrote it): last = last trade (else today's close), bid/ask from
    /// the last quote, previous close, today's volume; stamped with the last trade, else `updated`. A
    /// snapshot without its `ticker` is not the documented shape: that throws, failing the request rather
    /// than saying anything about the symbol. One without a price is the row's ("no trade").
    static func quote(from response: PolygonSnapshotResponse, symbol: String) throws(BrokerError) -> Result<CommonQuote, BrokerError> {
        switch response.status {
        case "NOT_FOUND": return .failure(.unknownSymbol(symbol))
        case "NOT_AUTHORIZED": return .failure(.unauthorized(hint: planHint))
        default: break
        }
        guard let snapshot = response.ticker else {
            throw .badResponse("polygon: no ticker in snapshot for \(symbol) (status \(VisibleText.escaped(String(response.status.prefix(20)))))")
        }
        // Zero is Polygon's "none yet": `day` is cleared before the pre-market opens.
        guard let last = positive(snapshot.lastTrade?.price) ?? positive(snapshot.day?.close) else {
            return .failure(.badResponse("polygon: no trade or day close for \(symbol)"))
        }
        guard let timestamp = date(unixNanoseconds: snapshot.lastTrade?.nanoseconds) ?? date(unixNanoseconds: snapshot.updated) else {
            return .failure(.badResponse("polygon: no timestamp for \(symbol)"))
        }
        return .success(CommonQuote(
            symbol: symbol, last: last, timestamp: timestamp,
            bid: positive(snapshot.lastQuote?.bidPrice),
            ask: positive(snapshot.lastQuote?.askPrice),
            previousClose: positive(snapshot.previousDay?.close),
            volume: shareCount(snapshot.day?.volume)
        ))
    }

    /// Polygon REST stamps are Unix nanoseconds, ~1.7e18, beyond Double's 2^53: the seconds and the
    /// nanoseconds are split in integers first, so only the final `Date` rounds (to well under 1 µs).
    static func date(unixNanoseconds: Int64?) -> Date? {
        guard let nanoseconds = unixNanoseconds, nanoseconds > 0 else { return nil }
        let (seconds, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        return Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(fraction) / 1_000_000_000)
    }

    private static func positive(_ value: ExactDecimal?) -> ExactDecimal? {
        guard let value, value.isPositive else { return nil }
        return value
    }

    /// Whole shares, rounded half away from zero (`v` may carry a fraction from odd lots).
    private static func shareCount(_ volume: ExactDecimal?) -> Int64? {
        guard let volume, !volume.isNegative else { return nil }
        return volume.rounded(toScale: 0, rule: .toNearestOrAwayFromZero).units / ExactDecimal.unitsPerOne
    }
}
