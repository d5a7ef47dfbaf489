import Domain
import Foundation
import Networking
import Testing

@testable import BrokerAdapters

/// Issue 13 (6): a `wss://` stream whose certificate is refused fails permanently, saying why and what to
/// set, on every streaming broker; before, it was a retryable network error and the footer counted
/// `reconnecting 7`, `reconnecting 8`, … forever.
@Suite struct StreamCertificateFailureTests {
    static let untrusted = WebSocketError.certificateRejected(.untrustedIssuer(host: "ws.example.test", reason: "unable to get local issuer certificate"))
    static let mismatch = WebSocketError.certificateRejected(.hostMismatch(host: "ws.example.test"))

    /// `openSession` of each broker's stream service over a connector that fails with `error`.
    static func openFailure(_ broker: String, _ error: WebSocketError) async throws -> BrokerError? {
        let socket = StreamSessionTestSocket(connectError: error)
        let service: any StreamingQuoteService = switch broker {
        case "finnhub": FinnhubStreamService(connector: socket, credentials: FinnhubCredentials(token: "t0ken"))
        case "polygon": PolygonStreamService(connector: socket, credentials: PolygonCredentials(apiKey: "k3y"))
        case "alpaca": AlpacaStreamService(connector: socket, credentials: AlpacaCredentials(keyID: "id", secretKey: "s3cret"))
        default:
            TradierStreamService(
                connector: socket,
                context: ServiceContext(
                    environment: .production, baseURLOverrides: ["tradier": URL(string: "http://127.0.0.1:8123")!],
                    servicer: try FixtureRoutesServicer(broker: "tradier")),
                credentials: TradierCredentials(token: "test-token"), now: { Date(timeIntervalSince1970: 1_731_528_900) })
        }
        do {
            let session = try await service.openSession()
            await session.close()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: ["finnhub", "polygon", "alpaca", "tradier"])
    func anUntrustedIssuerIsPermanentAndNamesTheSetting(broker: String) async throws {
        let error = try await Self.openFailure(broker, Self.untrusted)
        #expect(error == .certificateRejected("certificate not trusted (set tls.caFile)"))
        #expect(error?.isPermanent == true)
        #expect(error?.description == "certificate not trusted (set tls.caFile)")
    }

    @Test(arguments: ["finnhub", "polygon", "alpaca", "tradier"])
    func aCertificateForAnotherHostIsPermanentAndNamesTheHost(broker: String) async throws {
        let error = try await Self.openFailure(broker, Self.mismatch)
        #expect(error == .certificateRejected("certificate does not match host ws.example.test"))
        #expect(error?.isPermanent == true)
    }

    @Test func otherVerificationFailuresArePermanentInOpenSSLsWords() {
        let error = StreamCertificateFailure.brokerError(for: .certificateRejected(.invalid(host: "h\u{1B}", reason: "certificate has expired")))
        #expect(error == .certificateRejected("certificate of h\\u{1b} rejected: certificate has expired"))
        #expect(error?.isPermanent == true)
        #expect(StreamCertificateFailure.brokerError(for: .tls("handshake failure")) == nil)
    }
}
