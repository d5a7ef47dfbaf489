import Domain
import Testing
import Stores

@Suite struct BrokerStatusStoreTests {
    let alpha = ServiceBranding(id: "alpha", name: "Alpha", glyph: "α", color: .green)
    let beta = ServiceBranding(id: "beta", name: "Beta", glyph: "β", color: .blue)
    let gamma = ServiceBranding(id: "gamma", name: "Gamma", glyph: "γ", color: .red)

    func summary(_ store: BrokerStatusStore) -> [String] {
        store.statuses.map { "\($0.branding.id)=\($0.state)" }
    }

    @Test func startsEveryBrokerInTheInitialStateInTheGivenOrder() {
        let store = BrokerStatusStore(brokers: [gamma, alpha, beta])
        #expect(summary(store) == ["gamma=connecting", "alpha=connecting", "beta=connecting"])
        #expect(BrokerStatusStore(brokers: [alpha], initial: .polling).state(for: "alpha") == .polling)
    }

    @Test func applyChangesOnlyTheBrokersInTheUpdateAndKeepsTheOrder() {
        var store = BrokerStatusStore(brokers: [gamma, alpha, beta])
        store.apply(MarketUpdate(brokerStates: [
            "beta": .reconnecting(attempt: 2, reason: "reset"),
            "gamma": .live,
        ]))
        #expect(store.statuses.map(\.branding) == [gamma, alpha, beta])
        #expect(store.state(for: "gamma") == .live)
        #expect(store.state(for: "alpha") == .connecting)
        #expect(store.state(for: "beta") == .reconnecting(attempt: 2, reason: "reset"))
    }

    @Test func applyKeepsEachBrokersLatestSkippedFrameCount() {
        var store = BrokerStatusStore(brokers: [alpha, beta])
        store.apply(MarketUpdate(skippedFrames: ["alpha": 2, "zeta": 9]))
        store.apply(MarketUpdate(skippedFrames: ["alpha": 3]))
        #expect(store.skippedFrameCount(for: "alpha") == 3)
        #expect(store.skippedFrameCount(for: "beta") == 0)
        #expect(store.skippedFrameCount(for: "zeta") == 0)
    }

    @Test func setReplacesOneBrokersState() {
        var store = BrokerStatusStore(brokers: [alpha, beta])
        store.set(.failed(reason: "unauthorized, check ALPHA_TOKEN"), for: "alpha")
        #expect(store.state(for: "alpha") == .failed(reason: "unauthorized, check ALPHA_TOKEN"))
        #expect(store.state(for: "beta") == .connecting)
    }

    @Test func unknownBrokersAreIgnored() {
        var store = BrokerStatusStore(brokers: [alpha])
        store.set(.live, for: "nobody")
        store.apply(MarketUpdate(brokerStates: ["ghost": .live]))
        #expect(store.state(for: "nobody") == nil)
        #expect(store.state(for: "ghost") == nil)
        #expect(store.statuses.count == 1)
    }

    @Test func aBrokerListedTwiceAppearsOnce() {
        let store = BrokerStatusStore(brokers: [alpha, beta, alpha])
        #expect(store.statuses.map(\.branding.id) == ["alpha", "beta"])
    }
}
