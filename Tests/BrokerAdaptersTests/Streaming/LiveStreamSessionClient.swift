import Domain
import Testing

/// A stream service's session as a `LiveStreamClient`: the broker's protocol spoken by the code under test.
struct LiveStreamSessionClient: LiveStreamClient {
    let session: any QuoteStreamSession
    let events: StreamSessionTestEvents

    /// A session of `service` that reported `.live`, with its events being read.
    static func live(_ service: some StreamingQuoteService) async throws -> (any QuoteStreamSession, StreamSessionTestEvents) {
        let session = try await service.openSession()
        let events = StreamSessionTestEvents(session)
        #expect(try await events.next() == .event(.live))
        return (session, events)
    }

    /// Subscribes the live session to `symbols`.
    init(_ live: (any QuoteStreamSession, StreamSessionTestEvents), subscribing symbols: Set<String>) async {
        (session, events) = live
        await session.subscribe(symbols)
    }

    func prices(each symbols: Set<String>, count: Int) async throws -> [String: [ExactDecimal]] {
        var others: [StreamSessionTestOutcome] = []
        return try await LiveStreamFixture.prices(from: events, each: symbols, count: count, others: &others)
    }

    /// A retryable network failure, so that the hub reconnects.
    func expectEndOnceServerStopped() async throws {
        let outcome = try await LiveStreamFixture.nextNonQuote(from: events, timeout: .seconds(2))
        guard case .failed(let error) = outcome, case .network = error else {
            throw LiveStreamFixture.Failure(description: "expected a network failure, got \(String(describing: outcome))")
        }
        #expect(!error.isPermanent, "\(error) must be retryable")
    }

    func close() async {
        await session.close()
    }
}
