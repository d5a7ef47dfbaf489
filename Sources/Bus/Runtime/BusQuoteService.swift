import Domain
import Networking

/// One broker's quotes through the bus: what the hub sees in place of the broker's own stream.
///
/// Each session the hub opens joins the bus for this broker (`BusQuoteSession`): it follows what the
/// leader publishes, and leads (opens `upstream`) when the lease falls to it. Without an `upstream`
/// (no credentials here, or `role: "follower"`) it only ever follows.
///
/// When the bus cannot be reached, a process that has the broker's credentials connects directly, as it
/// would without a `bus` section, and says so in the footer; one that has none reports the broker
/// unreachable, and the hub tries again with its usual backoff.
public struct BusQuoteService: StreamingQuoteService {
    public let branding: ServiceBranding
    public let isPolled: Bool
    private let link: BusLink
    private let upstream: AnyStreamingQuoteService?
    private let routes: BusRouteBoard

    public init(branding: ServiceBranding, link: BusLink, upstream: AnyStreamingQuoteService?, routes: BusRouteBoard) {
        self.branding = branding
        self.isPolled = upstream?.isPolled ?? false
        self.link = link
        self.upstream = upstream
        self.routes = routes
    }

    public func openSession() async throws(BrokerError) -> any QuoteStreamSession {
        let settings = link.settings
        let mayLead = settings.role != .follower ? upstream : nil
        switch await link.keyValue() {
        case .success(let keyValue):
            return await BusQuoteSession.start(
                broker: branding.id, keyValue: keyValue, settings: settings, upstream: mayLead, routes: routes)
        case .failure(let unavailable):
            guard let upstream = mayLead else {
                routes.set(.busLost(reason: unavailable.description), for: branding.id)
                throw .network("the bus is unreachable and this process does not connect to \(branding.name) itself: \(unavailable)")
            }
            routes.set(.directWithoutBus(reason: unavailable.description), for: branding.id)
            return try await upstream.openSession()
        }
    }
}
