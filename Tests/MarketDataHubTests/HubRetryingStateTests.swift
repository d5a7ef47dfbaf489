import Domain
import Foundation
import Testing

@testable import MarketDataHub

/// A polled broker's `.retrying` event becomes its footer state; its next answer makes it live again.
@Suite struct HubRetryingStateTests {
    let alpha1 = UpstreamID(broker: "alpha", generation: 1)
    let until = Date(timeIntervalSince1970: 1_700_000_036)

    func openMachine() -> Machine {
        var machine = Machine(brokers: ["alpha"], backoff: BackoffPolicy(initial: .seconds(1), multiplier: 2, maximum: .seconds(4), jitter: 0))
        _ = machine.addSubscriber(1, symbols: ["AAPL"])
        _ = machine.upstreamOpened(alpha1, at: .zero)
        _ = machine.upstreamReceived(.live, from: alpha1)
        return machine
    }

    @Test func retryingBecomesTheBrokersStateAndTheNextAnswerMakesItLiveAgain() {
        var machine = openMachine()
        let state = BrokerConnectionState.retrying(at: until, after: .rateLimited(retryAfter: 36))
        #expect(machine.upstreamReceived(.retrying(at: until, after: .rateLimited(retryAfter: 36)), from: alpha1)
            == [.publishBrokerState(broker: "alpha", state)])
        #expect(machine.state(of: "alpha") == state)
        // The same state again is no news.
        #expect(machine.upstreamReceived(.retrying(at: until, after: .rateLimited(retryAfter: 36)), from: alpha1) == [])
        #expect(machine.upstreamReceived(.live, from: alpha1) == [.publishBrokerState(broker: "alpha", .live)])
    }

    /// Retrying is not a dropped connection: no reconnect, and the rows keep their quotes.
    @Test func retryingNeitherReconnectsNorTouchesTheRows() {
        var machine = openMachine()
        let quote = CommonQuote(symbol: "AAPL", last: exactDecimal("495.13"), timestamp: Date(timeIntervalSince1970: 1_700_000_000))
        _ = machine.upstreamReceived(.quote(quote), from: alpha1)
        let actions = machine.upstreamReceived(.retrying(at: until, after: .server(status: 500)), from: alpha1)
        #expect(actions == [.publishBrokerState(broker: "alpha", .retrying(at: until, after: .server(status: 500)))])
        #expect(machine.cachedQuote(QuoteKey(brandID: "alpha", symbol: "AAPL")) == quote)
        #expect(machine.cachedFailure(QuoteKey(brandID: "alpha", symbol: "AAPL")) == nil)
    }
}

/// The machine, not the actor, decides that a polled broker that works is `.polling` (issue 14, item 5).
@Suite struct HubPolledStateTests {
    @Test func aPolledBrokerThatWorksIsPollingAndAStreamIsLive() {
        var machine = Machine(brokers: ["poll", "stream"], polled: ["poll"])
        _ = machine.addSubscriber(1, symbols: ["AAPL"])
        let poll = UpstreamID(broker: "poll", generation: 1)
        let stream = UpstreamID(broker: "stream", generation: 1)
        _ = machine.upstreamOpened(poll, at: .zero)
        _ = machine.upstreamOpened(stream, at: .zero)
        #expect(machine.upstreamReceived(.live, from: poll) == [.publishBrokerState(broker: "poll", .polling)])
        #expect(machine.upstreamReceived(.live, from: stream) == [.publishBrokerState(broker: "stream", .live)])
        // After a retry, the first quote makes it polling again, on the quote's fast path too.
        let until = Date(timeIntervalSince1970: 1_700_000_036)
        _ = machine.upstreamReceived(.retrying(at: until, after: .server(status: 500)), from: poll)
        let quote = CommonQuote(symbol: "AAPL", last: 1, timestamp: until)
        #expect(machine.upstreamReceived(.quote(quote), from: poll)
            == [.publishBrokerState(broker: "poll", .polling), .publishQuote(QuoteKey(brandID: "poll", symbol: "AAPL"), quote)])
        #expect(machine.state(of: "poll") == .polling)
    }
}
