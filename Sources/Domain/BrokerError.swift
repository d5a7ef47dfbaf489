import Foundation

/// The one error domain every broker maps into. Messages are short enough for a table cell
/// (`shortReason`) and specific enough for a log line (`description`).
public enum BrokerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Credentials missing or rejected. `hint` says what to check, e.g. "check TRADIER_TOKEN".
    case unauthorized(hint: String)
    /// The provider asked us to slow down; retry no earlier than `retryAfter` seconds.
    case rateLimited(retryAfter: Double?)
    case unknownSymbol(String)
    /// The connection failed or dropped: DNS, refused, reset, timeout.
    case network(String)
    /// The provider answered with something we cannot use; `detail` holds a short excerpt.
    case badResponse(String)
    /// HTTP status the provider documents as a server fault (5xx).
    case server(status: Int)
    /// The broker refuses more connections or symbols (plan limits).
    case limitExceeded(String)
    /// The server's TLS certificate was refused (unknown CA, another host's name): `detail` says which and
    /// what to set. Retrying cannot help until the configuration changes.
    case certificateRejected(String)
    /// The broker refused an order; `reason` is its words (Alpaca's 422 `message`) or ours (the paper
    /// account's refusal). Outside text: escape before showing.
    case orderRejected(reason: String)
    /// The account cannot pay for an order: `detail` says what it needs and what it has.
    case insufficientBuyingPower(String)
    /// An order, cancel or replace would have reached `broker`'s live (real-money) environment, which this
    /// run does not allow; nothing was sent. Paper and sandbox environments are always allowed.
    case liveTradingNotAllowed(broker: String)
    case cancelled

    public var shortReason: String {
        switch self {
        case .unauthorized: "unauthorized"
        case .rateLimited: "rate limited"
        case .unknownSymbol: "unknown symbol"
        case .network: "network error"
        case .badResponse: "bad response"
        case .server(let status): "server error \(status)"
        case .limitExceeded: "limit exceeded"
        case .certificateRejected: "certificate rejected"
        case .orderRejected: "order rejected"
        case .insufficientBuyingPower: "insufficient buying power"
        case .liveTradingNotAllowed: "live trading not allowed"
        case .cancelled: "cancelled"
        }
    }

    public var description: String {
        switch self {
        case .unauthorized(let hint): hint.isEmpty ? "unauthorized" : "unauthorized, \(hint)"
        case .rateLimited(let after):
            after.map { "rate limited, retry in \(Int($0.rounded(.up)))s" } ?? "rate limited"
        case .unknownSymbol(let symbol): "unknown symbol \(symbol)"
        case .network(let detail): "network error: \(detail)"
        case .badResponse(let detail): "bad response: \(detail)"
        case .server(let status): "server error (HTTP \(status))"
        case .limitExceeded(let detail): "limit exceeded: \(detail)"
        case .certificateRejected(let detail): detail
        case .orderRejected(let reason): "order rejected: \(reason)"
        case .insufficientBuyingPower(let detail): "insufficient buying power: \(detail)"
        case .liveTradingNotAllowed(let broker):
            "\(broker): not sent, this order would trade real money and live trading is off; use the paper or sandbox "
                + "environment, or set \"trading\": {\"allowLive\": true} in the config to trade live"
        case .cancelled: "cancelled"
        }
    }

    /// Errors that retrying cannot fix: retrying them would only hammer the provider.
    public var isPermanent: Bool {
        switch self {
        case .unauthorized, .unknownSymbol, .limitExceeded, .certificateRejected, .orderRejected,
             .insufficientBuyingPower, .liveTradingNotAllowed: true
        default: false
        }
    }
}
