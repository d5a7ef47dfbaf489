import Foundation
import Domain

/// A request ready to send, and how to turn its response into `Response`.
public struct Request<Response: Sendable>: Sendable {
    public var httpRequest: HTTPRequest
    /// Header and query-item names whose values are secrets. Recordings, logs and errors show them as
    /// `<redacted>`; they never reach the screen.
    public var secretNames: Set<String>
    /// Said when the server rejects the credentials, e.g. "check TRADIER_TOKEN".
    public var credentialHint: String
    /// Decodes a 2xx response. Non-2xx statuses never reach it (see `HTTPStatusMapping`).
    public let decode: @Sendable (HTTPResponse) throws(BrokerError) -> Response

    public init(
        httpRequest: HTTPRequest, secretNames: Set<String> = [], credentialHint: String = "",
        decode: @escaping @Sendable (HTTPResponse) throws(BrokerError) -> Response
    ) {
        self.httpRequest = httpRequest
        self.secretNames = secretNames
        self.credentialHint = credentialHint
        self.decode = decode
    }
}
