import Domain
import Locking

/// An upstream session the test drives: it pushes events and reads back what the hub asked.
final class FakeQuoteSession: QuoteStreamSession {
    enum Call: Hashable, Sendable {
        case subscribe(Set<String>)
        case unsubscribe(Set<String>)
        case close
    }

    let events: QuoteEvents
    private let feed: QuoteEvents.Continuation
    private let calls: AsyncStream<Call>
    private let callLog: AsyncStream<Call>.Continuation
    private let recorded = Locked<[Call]>([])

    init() {
        (events, feed) = QuoteEvents.makeStream()
        (calls, callLog) = AsyncStream.makeStream()
    }

    var recordedCalls: [Call] { recorded.withLock { $0 } }

    func subscribe(_ symbols: Set<String>) async { record(.subscribe(symbols)) }
    func unsubscribe(_ symbols: Set<String>) async { record(.unsubscribe(symbols)) }
    func close() async {
        record(.close)
        feed.finish()
    }

    func send(_ event: QuoteEvent) { feed.yield(event) }
    /// The connection drops: the events stream throws `error`, or just ends when it is nil.
    func drop(throwing error: (any Error)? = nil) { feed.finish(throwing: error) }

    /// The next call the hub made on this session, in order.
    func nextCall() async throws -> FakeQuoteSession.Call {
        try await withTimeout("a call on the session") { [calls] in
            var iterator = calls.makeAsyncIterator()
            return await iterator.next()
        }
    }

    private func record(_ call: Call) {
        recorded.withLock { $0.append(call) }
        callLog.yield(call)
    }
}

/// A streaming broker whose sessions are `FakeQuoteSession`s; opens can be scripted to fail.
final class FakeStreamingBroker: Sendable {
    let branding: ServiceBranding
    private let failures = Locked<[BrokerError]>([])
    private let opens = Locked(0)
    private let sessions: AsyncStream<FakeQuoteSession>
    private let opened: AsyncStream<FakeQuoteSession>.Continuation

    init(id: String) {
        branding = ServiceBranding(id: id, name: id.capitalized, glyph: String(id.prefix(1)), color: .cyan)
        (sessions, opened) = AsyncStream.makeStream()
    }

    var service: AnyStreamingQuoteService { service(polled: false) }

    /// `polled`: the service says it is a poll loop (`StreamingQuoteService.isPolled`).
    func service(polled: Bool) -> AnyStreamingQuoteService {
        AnyStreamingQuoteService(branding: branding, isPolled: polled) { () async throws(BrokerError) -> any QuoteStreamSession in
            try self.open()
        }
    }

    var openCount: Int { opens.withLock { $0 } }

    /// The next `openSession()` calls throw these, in order.
    func failNextOpens(with errors: BrokerError...) {
        failures.withLock { $0 += errors }
    }

    /// The next session the hub opened.
    func nextSession() async throws -> FakeQuoteSession {
        try await withTimeout("a session of \(branding.id)") { [sessions] in
            var iterator = sessions.makeAsyncIterator()
            return await iterator.next()
        }
    }

    private func open() throws(BrokerError) -> FakeQuoteSession {
        opens.withLock { $0 += 1 }
        if let error = failures.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { throw error }
        let session = FakeQuoteSession()
        opened.yield(session)
        return session
    }
}
