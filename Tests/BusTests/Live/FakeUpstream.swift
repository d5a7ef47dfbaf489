import Domain
import Locking

/// A broker's stream as the bus session sees it, recording what it was asked: how many sessions were
/// opened, the symbols subscribed now; `push` sends a quote on the open session.
final class FakeUpstream: Sendable {
    private struct State {
        var opened = 0
        var subscribed: Set<String> = []
        var current: QuoteEvents.Continuation?
    }

    let branding = ServiceBranding(id: "fakebroker", name: "Fake Broker", glyph: "F", color: .blue)
    private let state = Locked(State())
    private let failsToOpen: Bool

    init(failsToOpen: Bool = false) {
        self.failsToOpen = failsToOpen
    }

    var opened: Int { state.withLock { $0.opened } }
    var subscribed: Set<String> { state.withLock { $0.subscribed } }
    var isOpen: Bool { state.withLock { $0.current != nil } }

    var service: AnyStreamingQuoteService {
        AnyStreamingQuoteService(branding: branding) { () async throws(BrokerError) -> any QuoteStreamSession in
            try self.open()
        }
    }

    func push(_ event: QuoteEvent) {
        _ = state.withLock { $0.current?.yield(event) }
    }

    /// The broker drops the connection.
    func drop(_ error: BrokerError) {
        state.withLock { state in
            state.current?.finish(throwing: error)
            state.current = nil
        }
    }

    private func open() throws(BrokerError) -> any QuoteStreamSession {
        if failsToOpen { throw .unauthorized(hint: "check FAKE_KEY") }
        let (events, continuation) = QuoteEvents.makeStream()
        state.withLock { state in
            state.opened += 1
            state.subscribed = []
            state.current = continuation
        }
        continuation.yield(.live)
        return Session(events: events, owner: self)
    }

    fileprivate func subscribe(_ symbols: Set<String>) {
        state.withLock { $0.subscribed.formUnion(symbols) }
    }

    fileprivate func unsubscribe(_ symbols: Set<String>) {
        state.withLock { $0.subscribed.subtract(symbols) }
    }

    fileprivate func closed() {
        state.withLock { state in
            state.current?.finish()
            state.current = nil
            state.subscribed = []
        }
    }

    private struct Session: QuoteStreamSession {
        let events: QuoteEvents
        let owner: FakeUpstream

        func subscribe(_ symbols: Set<String>) async { owner.subscribe(symbols) }
        func unsubscribe(_ symbols: Set<String>) async { owner.unsubscribe(symbols) }
        func close() async { owner.closed() }
    }
}
