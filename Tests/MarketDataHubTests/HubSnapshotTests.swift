import Domain
import Foundation
import Locking
import TestSupport
import Testing

@testable import MarketDataHub

/// Snapshots take the hub's path like every quote (issue 14, item 3): the machine's rules, then the
/// actor end to end with a fast and a held-back source.
@Suite struct HubSnapshotTests {
    let alpha1 = UpstreamID(broker: "alpha", generation: 1)
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    func quote(_ symbol: String, _ last: ExactDecimal, at seconds: Double = 0) -> CommonQuote {
        CommonQuote(symbol: symbol, last: last, timestamp: t0.addingTimeInterval(seconds))
    }

    func machine() -> Machine {
        var machine = Machine(brokers: ["alpha"])
        _ = machine.addSubscriber(1, symbols: ["AAPL", "MSFT"])
        _ = machine.upstreamOpened(alpha1, at: .zero)
        return machine
    }

    @Test func aSnapshotIsPublishedAndCachedButNeverOverANewerStreamedQuote() {
        var machine = machine()
        _ = machine.upstreamReceived(.quote(quote("AAPL", 102, at: 5)), from: alpha1)
        var actions: [Machine.Action] = []
        machine.snapshotReceived(
            ["AAPL": .success(quote("AAPL", 99, at: 0)), "MSFT": .success(quote("msft", 401, at: 0)), "GOOG": .success(quote("GOOG", 1))],
            from: "alpha", into: &actions)
        let msft = QuoteKey(brandID: "alpha", symbol: "MSFT")
        #expect(actions == [.publishQuote(msft, quote("MSFT", 401, at: 0))], "older AAPL and unfollowed GOOG are dropped")
        #expect(machine.cachedQuote(QuoteKey(brandID: "alpha", symbol: "AAPL"))?.last == 102)
        #expect(machine.cachedQuote(msft)?.symbol == "MSFT", "keyed by the symbol asked for")
    }

    @Test func aFailedSnapshotReachesOnlyRowsWithoutAPrice() {
        var machine = machine()
        _ = machine.upstreamReceived(.quote(quote("AAPL", 102)), from: alpha1)
        var actions: [Machine.Action] = []
        machine.snapshotReceived(["AAPL": .failure(.server(status: 500)), "MSFT": .failure(.server(status: 500))], from: "alpha", into: &actions)
        #expect(actions == [.publishFailure(QuoteKey(brandID: "alpha", symbol: "MSFT"), .server(status: 500))])
        actions.removeAll()
        machine.snapshotReceived(["MSFT": .failure(.server(status: 500))], from: "alpha", into: &actions)
        #expect(actions == [], "the same failure again is not news")
    }

    @Test func eachSourceAnswersOnItsOwnAndSubscribersGetTheAnswers() async throws {
        let slowGate = SourceGate()
        let fast = ScriptedSource(branding: ServiceBranding(id: "alpha", name: "Alpha", glyph: "a", color: .cyan), prices: ["AAPL": 101])
        let slow = ScriptedSource(branding: ServiceBranding(id: "beta", name: "Beta", glyph: "b", color: .magenta), prices: ["AAPL": exactDecimal("100.5")], gate: slowGate)
        let alpha = FakeStreamingBroker(id: "alpha")
        let beta = FakeStreamingBroker(id: "beta")
        let hub = MarketDataHub(services: [alpha.service, beta.service], snapshotSources: [fast, slow], clock: ManualClock())
        let subscription = await hub.subscribe(symbols: ["AAPL"])
        await hub.refresh(["AAPL"])
        let first = try await withTimeout("alpha's snapshot") { () async -> MarketUpdate? in
            var view = MarketUpdate()
            for await batch in subscription.updates {
                view.quotes.merge(batch.quotes) { $1 }
                if view.quotes[QuoteKey(brandID: "alpha", symbol: "AAPL")] != nil { return view }
            }
            return nil
        }
        #expect(first.quotes[QuoteKey(brandID: "alpha", symbol: "AAPL")]?.last == 101)
        #expect(first.quotes[QuoteKey(brandID: "beta", symbol: "AAPL")] == nil, "the held-back broker does not hold the other up")
        slowGate.open()
        let second = try await withTimeout("beta's snapshot") { () async -> MarketUpdate? in
            for await batch in subscription.updates where batch.quotes[QuoteKey(brandID: "beta", symbol: "AAPL")] != nil {
                return batch
            }
            return nil
        }
        #expect(second.quotes[QuoteKey(brandID: "beta", symbol: "AAPL")]?.last == exactDecimal("100.5"))
        await subscription.cancel()
        await hub.shutdown()
    }

    @Test func aSourceAnswersOneRefreshAtATimeAndIsNotAskedForSymbolsNoLongerFollowed() async throws {
        let source = HeldSource(branding: ServiceBranding(id: "alpha", name: "Alpha", glyph: "a", color: .cyan))
        let alpha = FakeStreamingBroker(id: "alpha")
        let hub = MarketDataHub(services: [alpha.service], snapshotSources: [source], clock: ManualClock())
        let subscription = await hub.subscribe(symbols: ["AAPL", "MSFT", "NVDA", "A0001"])
        await hub.refresh(["AAPL"])
        let first = try await withTimeout("the first request") { await source.nextCall() }
        // Asked while the first is held (behind a rate limit, say): they wait, and A0001 goes meanwhile.
        await hub.refresh(["MSFT"])
        await hub.refresh(["A0001", "NVDA"])
        await subscription.setSymbols(["AAPL", "MSFT", "NVDA"])
        first.answer.open()
        let second = try await withTimeout("the second request") { await source.nextCall() }
        second.answer.open()
        #expect(first.symbols == ["AAPL"])
        #expect(second.symbols == ["MSFT", "NVDA"], "one request for what waited, without the symbol removed")
        let answered = try await withTimeout("both answers") { () async -> MarketUpdate? in
            var view = MarketUpdate()
            for await batch in subscription.updates {
                view.quotes.merge(batch.quotes) { $1 }
                if view.quotes.count == 3 { return view }
            }
            return nil
        }
        #expect(Set(answered.quotes.keys.map(\.symbol)) == ["AAPL", "MSFT", "NVDA"])
        await subscription.cancel()
        await hub.shutdown()
    }
}

/// A quote service answering from a table, optionally held until a gate opens.
struct ScriptedSource: QuoteService {
    let branding: ServiceBranding
    var prices: [String: ExactDecimal]
    var gate: SourceGate?

    func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        await gate?.wait()
        var results: [String: Result<CommonQuote, BrokerError>] = [:]
        for symbol in symbols {
            results[symbol] = prices[symbol].map { .success(CommonQuote(symbol: symbol, last: $0, timestamp: Date(timeIntervalSince1970: 1_700_000_000))) }
                ?? .failure(.unknownSymbol(symbol))
        }
        return results
    }
}

/// Holds callers until opened.
final class SourceGate: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resume = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume() }
    }
}

/// A quote service that hands each call to the test (`nextCall`) and answers it once the test opens
/// that call's gate.
final class HeldSource: QuoteService {
    struct Call: Sendable {
        let symbols: [String]
        let answer: SourceGate
    }

    let branding: ServiceBranding
    private let calls: AsyncStream<Call>
    private let made: AsyncStream<Call>.Continuation

    init(branding: ServiceBranding) {
        self.branding = branding
        (calls, made) = AsyncStream.makeStream()
    }

    func nextCall() async -> Call? {
        for await call in calls { return call }
        return nil
    }

    func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        let answer = SourceGate()
        made.yield(Call(symbols: symbols, answer: answer))
        await answer.wait()
        return Dictionary(uniqueKeysWithValues: symbols.map {
            ($0, .success(CommonQuote(symbol: $0, last: 10, timestamp: Date(timeIntervalSince1970: 1_700_000_000))))
        })
    }
}
