import Domain
import Foundation
import Networking

/// The process's one connection to the bus and its bucket, made when a broker's session first needs it.
///
/// Every broker's session asks `keyValue()`; the first call connects (within `connectTimeout`) and
/// creates the bucket if it is missing, and the calls made meanwhile wait for that same attempt, so four
/// brokers cost one connection and at most one timeout. A failed attempt is remembered for
/// `retryAfter`, so sessions reopened by the hub soon after go straight to running without the bus.
/// Once connected, the connection itself reconnects for ever (NATSConnection), and sessions follow its
/// events.
public actor BusLink {
    public nonisolated let settings: BusSettings
    private let retryAfter: Duration
    private var connected: NATSKeyValue?
    private var attempt: Task<Result<NATSKeyValue, BusUnavailable>, Never>?
    private var lastFailure: (reason: BusUnavailable, at: ContinuousClock.Instant)?

    public init(settings: BusSettings, retryAfter: Duration = .seconds(5)) {
        self.settings = settings
        self.retryAfter = retryAfter
    }

    public func keyValue() async -> Result<NATSKeyValue, BusUnavailable> {
        if let connected { return .success(connected) }
        if let lastFailure, lastFailure.at.duration(to: .now) < retryAfter { return .failure(lastFailure.reason) }
        let attempt = self.attempt ?? Task { [settings] in await Self.connect(settings) }
        self.attempt = attempt
        let result = await attempt.value
        self.attempt = nil
        switch result {
        case .success(let keyValue):
            connected = keyValue
            lastFailure = nil
        case .failure(let reason):
            lastFailure = (reason, .now)
        }
        return result
    }

    public func close() async {
        attempt?.cancel()
        await connected?.connection.close()
        connected = nil
    }

    private static func connect(_ settings: BusSettings) async -> Result<NATSKeyValue, BusUnavailable> {
        let options = NATSConnection.Options(
            servers: settings.servers, credentials: settings.credentials, name: "commonbroker \(settings.holder)",
            connectTimeout: settings.connectTimeout, extraCAFile: settings.extraCAFile)
        let connection: NATSConnection
        do {
            connection = try await NATSConnection.connect(options)
        } catch {
            return .failure(BusUnavailable("cannot connect to \(settings.serversForHumans): \(error)"))
        }
        do {
            let configuration = NATSKeyValueBucketConfiguration(history: 1, replicas: settings.replicas)
            return .success(try await NATSKeyValue.create(bucket: settings.bucket, configuration: configuration, connection: connection))
        } catch {
            await connection.close()
            return .failure(BusUnavailable("connected to \(settings.serversForHumans), but the bucket \"\(settings.bucket)\" cannot be used: \(error) (is JetStream on? start nats-server with -js)"))
        }
    }
}

/// Why the bus cannot be used: printable, with no credential in it.
public struct BusUnavailable: Error, Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

extension BusSettings {
    /// The server addresses without any user, password or token a URL may carry.
    public var serversForHumans: String {
        servers.map { url in
            guard let at = url.lastIndex(of: "@"), let scheme = url.range(of: "://") else { return url }
            return String(url[..<scheme.upperBound]) + String(url[url.index(after: at)...])
        }.joined(separator: ", ")
    }
}
