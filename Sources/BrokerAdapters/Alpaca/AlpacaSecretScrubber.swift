import Foundation
import Domain
import Networking

/// Removes key values from texts that reach the user. Excerpts of server bodies end up in errors, and a
/// misbehaving proxy or server may echo request headers back in its body.
enum AlpacaSecretScrubber {
    static let replacement = "<redacted>"

    static func scrub(_ text: String, secrets: [String]) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: replacement) }
    }

    static func scrub(_ error: BrokerError, secrets: [String]) -> BrokerError {
        guard !secrets.isEmpty else { return error }
        switch error {
        case .unauthorized(let hint): return .unauthorized(hint: scrub(hint, secrets: secrets))
        case .unknownSymbol(let symbol): return .unknownSymbol(scrub(symbol, secrets: secrets))
        case .network(let detail): return .network(scrub(detail, secrets: secrets))
        case .badResponse(let detail): return .badResponse(scrub(detail, secrets: secrets))
        case .limitExceeded(let detail): return .limitExceeded(scrub(detail, secrets: secrets))
        case .orderRejected(let reason): return .orderRejected(reason: scrub(reason, secrets: secrets))
        case .insufficientBuyingPower(let detail): return .insufficientBuyingPower(scrub(detail, secrets: secrets))
        case .rateLimited, .server, .cancelled, .certificateRejected, .liveTradingNotAllowed: return error
        }
    }
}

extension AlpacaSecretScrubber {
    /// `response` with every secret in its body replaced, so an excerpt cut at any length cannot show part
    /// of one. Bodies without a secret are returned untouched, byte for byte.
    static func scrub(_ response: HTTPResponse, secrets: [String]) -> HTTPResponse {
        guard secrets.contains(where: { response.body.range(of: Data($0.utf8)) != nil }) else { return response }
        let text = scrub(String(decoding: response.body, as: UTF8.self), secrets: secrets)
        return HTTPResponse(status: response.status, headers: response.headers, body: Data(text.utf8))
    }
}
