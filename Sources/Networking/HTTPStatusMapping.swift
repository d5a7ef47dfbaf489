import Domain
import Foundation

/// How HTTP statuses become `BrokerError`s, the same for every broker.
public enum HTTPStatusMapping {
    /// nil for 2xx; otherwise the error the status and headers mean.
    public static func error(for response: HTTPResponse, credentialHint: String, now: Date = Date()) -> BrokerError? {
        switch response.status {
        case 200..<300: nil
        case 401, 403: .unauthorized(hint: credentialHint)
        case 404: .badResponse("HTTP 404 (not found): \(response.bodyExcerpt(limit: 80))")
        case 429: .rateLimited(retryAfter: retryAfter(response, now: now))
        case 500..<600: .server(status: response.status)
        default: .badResponse("HTTP \(response.status): \(response.bodyExcerpt(limit: 80))")
        }
    }

    /// Seconds to wait, from `Retry-After` (seconds or an HTTP date) or a rate-limit reset header
    /// (Tradier's `X-Ratelimit-Expiry`, Alpaca's `X-Ratelimit-Reset`: epoch seconds or milliseconds).
    public static func retryAfter(_ response: HTTPResponse, now: Date) -> Double? {
        if let value = response.header("Retry-After")?.trimmingCharacters(in: .whitespaces) {
            if let seconds = Double(value), seconds >= 0 { return seconds }
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            if let date = formatter.date(from: value) { return max(0, date.timeIntervalSince(now)) }
        }
        for name in ["X-Ratelimit-Expiry", "X-Ratelimit-Reset"] {
            guard let raw = response.header(name).flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }) else { continue }
            // Values above 1e11 are epoch milliseconds (reference §1.4: SDKs disagree, parse defensively).
            let epochSeconds = raw > 1e11 ? raw / 1000 : raw
            return max(0, epochSeconds - now.timeIntervalSince1970)
        }
        return nil
    }
}
