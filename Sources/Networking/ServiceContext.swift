import Foundation

/// Which of a broker's deployments to talk to.
public enum ServiceEnvironment: String, Sendable, Hashable, CaseIterable {
    case production
    case sandbox
}

/// Everything a broker adapter needs from the outside world, chosen at one point (the composition root):
/// the environment, base URLs (overridable per broker, so tests point at local servers), credentials and
/// the servicer (live, recording or replaying).
public struct ServiceContext: Sendable {
    public var environment: ServiceEnvironment
    /// Broker id → base URL that replaces the broker's own (config `baseURL`).
    public var baseURLOverrides: [String: URL]
    public var servicer: any RequestServicer
    /// Sent with every request.
    public var userAgent: String

    public init(
        environment: ServiceEnvironment = .production, baseURLOverrides: [String: URL] = [:],
        servicer: any RequestServicer, userAgent: String = "commonbroker/0.1"
    ) {
        self.environment = environment
        self.baseURLOverrides = baseURLOverrides
        self.servicer = servicer
        self.userAgent = userAgent
    }

    /// The base URL for `brokerID`: the override if any, else the broker's URL for this environment.
    /// A broker without a sandbox fails clearly instead of silently using production.
    public func baseURL(for brokerID: String, production: URL, sandbox: URL?) -> Result<URL, RequestConstructionError> {
        if let override = baseURLOverrides[brokerID] { return .success(override) }
        switch environment {
        case .production: return .success(production)
        case .sandbox:
            guard let sandbox else { return .failure(.badBaseURL("\(brokerID) has no sandbox")) }
            return .success(sandbox)
        }
    }
}
