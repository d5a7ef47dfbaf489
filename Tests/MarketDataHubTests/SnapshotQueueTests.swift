import Testing

@testable import MarketDataHub

@Suite struct SnapshotQueueTests {
    @Test func anIdleSourceIsAskedAtOnce() {
        var queue = SnapshotQueue()
        #expect(queue.ask(["AAPL", "MSFT"]) == ["AAPL", "MSFT"])
        #expect(queue.isBusy)
        #expect(queue.waiting.isEmpty)
    }

    @Test func askingForNothingStartsNothing() {
        var queue = SnapshotQueue()
        #expect(queue.ask([]) == nil)
        #expect(!queue.isBusy)
    }

    @Test func whatIsAskedMeanwhileWaitsAsOneSet() {
        var queue = SnapshotQueue()
        _ = queue.ask(["AAPL"])
        #expect(queue.ask(["MSFT"]) == nil)
        #expect(queue.ask(["MSFT", "NVDA"]) == nil)
        #expect(queue.waiting == ["MSFT", "NVDA"])
        #expect(queue.finished(following: { _ in true }) == ["MSFT", "NVDA"])
        #expect(queue.isBusy, "the waiting symbols are the request now under way")
        #expect(queue.waiting.isEmpty)
        #expect(queue.finished(following: { _ in true }) == nil)
        #expect(!queue.isBusy)
    }

    @Test func symbolsNoLongerFollowedAreNotAskedFor() {
        var queue = SnapshotQueue()
        _ = queue.ask(["AAPL"])
        _ = queue.ask(["A0001", "A0002", "MSFT"])
        #expect(queue.finished(following: { $0 == "MSFT" }) == ["MSFT"])
        _ = queue.ask(["A0003"])
        #expect(queue.finished(following: { _ in false }) == nil, "nothing left to ask: idle")
        #expect(!queue.isBusy)
        #expect(queue.waiting.isEmpty)
        #expect(queue.ask(["TSLA"]) == ["TSLA"])
    }

    @Test func clearingForgetsTheRequestAndTheWaiting() {
        var queue = SnapshotQueue()
        _ = queue.ask(["AAPL"])
        _ = queue.ask(["MSFT"])
        queue.clear()
        #expect(!queue.isBusy)
        #expect(queue.waiting.isEmpty)
    }
}
