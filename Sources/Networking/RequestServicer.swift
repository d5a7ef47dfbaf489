import Foundation
import Domain

/// The one door every HTTP request goes through. Implementations: live (`SocketRequestServicer`), recording (a
/// decorator that writes redacted request/response pairs to a folder) and replaying (serves them back).
public protocol RequestServicer: Sendable {
    /// Sends the request and returns whatever the server answered, any status. Throws only when there is
    /// no answer: `.network` (refused, reset, timeout, DNS) or `.cancelled`.
    func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse
}

extension RequestServicer {
    /// Sends, turns a non-2xx status into the matching `BrokerError`, and decodes the rest.
    public func perform<Response>(_ request: Request<Response>) async throws(BrokerError) -> Response {
        let response = try await send(request.httpRequest, secretNames: request.secretNames)
        if let error = HTTPStatusMapping.error(for: response, credentialHint: request.credentialHint) {
            throw error
        }
        return try request.decode(response)
    }

    /// Builds, sends and decodes; a request that cannot be built fails with its `brokerError`.
    public func perform<Response>(_ built: Result<Request<Response>, RequestConstructionError>) async throws(BrokerError) -> Response {
        switch built {
        case .success(let request): return try await perform(request)
        case .failure(let error): throw error.brokerError
        }
    }
}
