import Domain
import Foundation
import Networking

/// One request to Tradier through the one servicer: built, checked against the live-trading guard when it
/// changes an order, sent, its status mapped, its body decoded. Quotes, profile, balances, positions and
/// orders all go through here.
struct TradierExchange: Sendable {
    /// What the request does, which decides how a refusal reads.
    enum Purpose: Sendable {
        /// Reads data. A 4xx carrying Tradier's `errors`/`fault` JSON keeps that message (`.badResponse`).
        case read
        /// Places, modifies or cancels an order: allowed only by `LiveTradingGuard`; a 4xx carrying
        /// Tradier's `errors` JSON is the order being refused (`orderRefusal`).
        case changeOrder(LiveTradingGuard)
    }

    let servicer: any RequestServicer
    /// Dates `X-Ratelimit-Expiry`.
    let now: @Sendable () -> Date

    func perform<Response>(_ built: Result<Request<Response>, RequestConstructionError>, _ purpose: Purpose = .read) async throws(BrokerError) -> Response {
        let request: Request<Response>
        switch built {
        case .success(let value): request = value
        case .failure(let error): throw error.brokerError
        }
        if case .changeOrder(let liveTrading) = purpose { try liveTrading.permit(request.httpRequest.url) }
        let response = try await servicer.send(request.httpRequest, secretNames: request.secretNames)
        if let error = HTTPStatusMapping.error(for: response, credentialHint: request.credentialHint, now: now()) {
            if case .badResponse = error, let message = TradierResponseDecoding.errorMessage(in: response) {
                switch purpose {
                case .read: throw .badResponse("\(TradierRequestFactory.brokerID): HTTP \(response.status): \(message)")
                case .changeOrder: throw Self.orderRefusal(message)
                }
            }
            throw error
        }
        return try request.decode(response)
    }

    /// Tradier's words refusing an order (an `errors` body with 400, or inside a 200, reference §1.4):
    /// `.insufficientBuyingPower` when they are about buying power, else `.orderRejected`. `message` is
    /// already escaped and cut to length (`TradierErrorBody.message`).
    static func orderRefusal(_ message: String) -> BrokerError {
        message.lowercased().contains("buying power") ? .insufficientBuyingPower(message) : .orderRejected(reason: message)
    }
}
