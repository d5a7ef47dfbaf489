import Domain
import Foundation
import Networking

/// Decides whether a request that places, replaces or cancels an order may leave: always to a paper or
/// sandbox environment, to the live (real-money) one only with `LiveTrading.allowed`. Each order-changing
/// box asks it before it sends anything (including a look-up the change needs first) and again with the
/// built request's own URL, so no path around it reaches a live account.
public struct LiveTradingGuard: Sendable, Hashable {
    /// Named in the refusal.
    public let brokerID: String
    public let environment: ServiceEnvironment
    public let liveTrading: LiveTrading
    /// Hosts of the broker's real-money API (lower case). A request to one of them is live whatever the
    /// environment says: a base URL override can point a sandbox run at production.
    public let liveHosts: Set<String>

    public init(brokerID: String, environment: ServiceEnvironment, liveTrading: LiveTrading, liveHosts: Set<String>) {
        self.brokerID = brokerID
        self.environment = environment
        self.liveTrading = liveTrading
        self.liveHosts = Set(liveHosts.map { $0.lowercased() })
    }

    /// True when an order sent to `url` could trade real money: the production environment (even through a
    /// local override, which may be a proxy of it), a live host, or a URL whose host cannot be told.
    public func isLive(_ url: URL?) -> Bool {
        if environment == .production { return true }
        guard let host = url?.host?.lowercased(), !host.isEmpty else { return true }
        return liveHosts.contains(host)
    }

    /// Throws `.liveTradingNotAllowed` when an order to `url` would be live and live trading is off.
    public func permit(_ url: URL?) throws(BrokerError) {
        if liveTrading == .notAllowed && isLive(url) { throw .liveTradingNotAllowed(broker: brokerID) }
    }

    /// `permit` for the broker's base URL, before any request of an order change (a look-up it needs first
    /// included) is built. A base URL that cannot be resolved sends nothing anyway: outside production it is
    /// left to the request's own `.badBaseURL`, which names the fix.
    func permit(_ base: Result<URL, RequestConstructionError>) throws(BrokerError) {
        switch base {
        case .success(let url): try permit(url)
        case .failure: if environment == .production { try permit(nil as URL?) }
        }
    }
}
