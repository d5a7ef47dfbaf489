import Domain
import Foundation
import Networking

/// One request to Alpaca through the one servicer: built, checked against the live-trading guard when it
/// changes an order, sent, scrubbed of the key values, its non-2xx status mapped, its body decoded. Every
/// Alpaca endpoint (snapshots, account, positions, orders) goes through here, so each answers errors the
/// same way and none can show a key.
struct AlpacaExchange: Sendable {
    /// What the request does, which decides how a refusal reads.
    enum Purpose: Sendable {
        /// Reads data: statuses map as for every endpoint (`AlpacaErrorMapping.error`).
        case read
        /// Places, replaces or cancels an order: allowed only by `LiveTradingGuard`, and a refusal of the
        /// order itself is `.orderRejected` or `.insufficientBuyingPower` (`AlpacaErrorMapping.orderError`).
        case changeOrder(LiveTradingGuard)
    }

    let servicer: any RequestServicer
    /// Key values scrubbed from every error text.
    let secrets: [String]
    /// Dates rate-limit reset headers.
    let now: @Sendable () -> Date

    func perform<T>(_ built: Result<Request<T>, RequestConstructionError>, _ purpose: Purpose = .read) async throws(BrokerError) -> T {
        let request: Request<T>
        switch built {
        case .success(let value): request = value
        case .failure(let error): throw error.brokerError
        }
        do throws(BrokerError) {
            if case .changeOrder(let liveTrading) = purpose { try liveTrading.permit(request.httpRequest.url) }
            let raw = try await servicer.send(request.httpRequest, secretNames: request.secretNames)
            let response = AlpacaSecretScrubber.scrub(raw, secrets: secrets)
            let error = switch purpose {
            case .read: AlpacaErrorMapping.error(for: response, credentialHint: request.credentialHint, now: now())
            case .changeOrder: AlpacaErrorMapping.orderError(for: response, credentialHint: request.credentialHint, now: now())
            }
            if let error { throw error }
            return try request.decode(response)
        } catch {
            throw AlpacaSecretScrubber.scrub(error, secrets: secrets)
        }
    }
}
