import Foundation

/// What a streaming connection reports.
public enum QuoteEvent: Sendable, Hashable {
    case quote(CommonQuote)
    /// The broker refused or lost one symbol (e.g. unknown symbol); the stream itself goes on.
    case symbolFailed(String, BrokerError)
    /// The connection is authenticated and ready for subscriptions.
    case live
    /// A frame that could not be decoded was skipped; the stream goes on. `reason` is short and printable
    /// (no frame content), e.g. "malformed JSON at byte 12: expected a value". The hub counts these per broker.
    case skippedFrame(reason: String)
    /// A request failed for a reason that passes (`error` is not permanent): nothing is asked of the broker
    /// before `at`, and the session goes on. The next answer is followed by `.live` again.
    case retrying(at: Date, after: BrokerError)
}

/// One upstream connection to a broker. The hub owns it: it subscribes and unsubscribes as demand
/// changes, and reads `events` until the stream finishes (dropped) or throws (failed).
public protocol QuoteStreamSession: Sendable {
    var events: QuoteEvents { get }
    func subscribe(_ symbols: Set<String>) async
    func unsubscribe(_ symbols: Set<String>) async
    func close() async
}

/// Live quotes pushed by a broker over one connection.
public protocol StreamingQuoteService: BrandedService {
    /// True when the "stream" is a loop of requests (a REST broker polled): the footer then says
    /// "polling" rather than "live" once it works, so nobody mistakes a 5-second poll for a live feed.
    var isPolled: Bool { get }

    /// Opens a connection. Throws `BrokerError` when it cannot be established.
    func openSession() async throws(BrokerError) -> any QuoteStreamSession
}

extension StreamingQuoteService {
    public var isPolled: Bool { false }
}

/// A type-erased streaming service, so heterogeneous brokers sit in one array and tests can make
/// one from closures.
public struct AnyStreamingQuoteService: StreamingQuoteService {
    public let branding: ServiceBranding
    public let isPolled: Bool
    private let open: @Sendable () async throws(BrokerError) -> any QuoteStreamSession

    public init(
        branding: ServiceBranding, isPolled: Bool = false,
        open: @escaping @Sendable () async throws(BrokerError) -> any QuoteStreamSession
    ) {
        self.branding = branding
        self.isPolled = isPolled
        self.open = open
    }

    public init(_ base: some StreamingQuoteService) {
        self.branding = base.branding
        self.isPolled = base.isPolled
        self.open = { () async throws(BrokerError) -> any QuoteStreamSession in try await base.openSession() }
    }

    public func openSession() async throws(BrokerError) -> any QuoteStreamSession {
        try await open()
    }
}
