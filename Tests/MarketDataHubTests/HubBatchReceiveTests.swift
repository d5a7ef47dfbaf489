import Domain
import Foundation
import Testing

@testable import MarketDataHub

/// The hub takes what a session queued as one batch (`upstreamReceived(_ events:)`), which looks the
/// upstream up once for a run of quotes: it must do exactly what the events one at a time do, including
/// where an event between the quotes changes the upstream's state.
@Suite struct HubBatchReceiveTests {
    private let alpha1 = HubStateMachine.UpstreamID(broker: "alpha", generation: 1)
    private let at = Date(timeIntervalSince1970: 1_700_000_000)

    private func quote(_ symbol: String, _ last: ExactDecimal) -> QuoteEvent {
        .quote(CommonQuote(symbol: symbol, last: last, timestamp: at))
    }

    private func openMachine() -> HubStateMachine {
        var machine = HubStateMachine(brokers: ["alpha", "beta"], backoff: BackoffPolicy(jitter: 0))
        _ = machine.addSubscriber(1, symbols: ["AAPL", "MSFT", "ZZZZ"])
        _ = machine.upstreamOpened(alpha1, at: .zero)
        _ = machine.upstreamOpened(HubStateMachine.UpstreamID(broker: "beta", generation: 1), at: .zero)
        return machine
    }

    private var mixed: [QuoteEvent] {
        [
            quote("AAPL", 190),  // the first quote makes the broker live
            quote("IBM", 150),  // followed by no one: dropped
            quote("MSFT", 410),
            .retrying(at: at.addingTimeInterval(30), after: .rateLimited(retryAfter: 30)),
            quote("AAPL", 191),  // live again
            .symbolFailed("ZZZZ", .unknownSymbol("ZZZZ")),
            .skippedFrame(reason: "malformed JSON at byte 3"),
            quote("MSFT", 411),
            quote("AAPL", 192),
        ]
    }

    @Test func aBatchDoesWhatItsEventsDoOneAtATime() {
        var oneByOne = openMachine()
        var expected: [HubStateMachine.Action] = []
        for event in mixed { oneByOne.upstreamReceived(event, from: alpha1, into: &expected) }

        var batched = openMachine()
        var actions: [HubStateMachine.Action] = []
        batched.upstreamReceived(mixed, from: alpha1, into: &actions)

        #expect(actions == expected)
        #expect(expected.count == 10, "\(expected)")
        for symbol in ["AAPL", "MSFT", "IBM", "ZZZZ"] {
            let key = QuoteKey(brandID: "alpha", symbol: symbol)
            #expect(batched.cachedQuote(key) == oneByOne.cachedQuote(key))
            #expect(batched.cachedFailure(key) == oneByOne.cachedFailure(key))
        }
        #expect(batched.state(of: "alpha") == .live)
        #expect(batched.skippedFrameCount(of: "alpha") == 1)
        #expect(batched.cachedQuote(QuoteKey(brandID: "alpha", symbol: "AAPL"))?.last == 192)
    }

    @Test func aBatchFromAnOlderSessionChangesNothing() {
        var machine = openMachine()
        var actions: [HubStateMachine.Action] = []
        machine.upstreamReceived(mixed, from: HubStateMachine.UpstreamID(broker: "alpha", generation: 0), into: &actions)
        #expect(actions == [])
        #expect(machine.cachedQuote(QuoteKey(brandID: "alpha", symbol: "AAPL")) == nil)
    }

    @Test func aBatchFromABrokerTheHubDoesNotKnowChangesNothing() {
        var machine = openMachine()
        var actions: [HubStateMachine.Action] = []
        machine.upstreamReceived(mixed, from: HubStateMachine.UpstreamID(broker: "gamma", generation: 1), into: &actions)
        #expect(actions == [])
    }
}
