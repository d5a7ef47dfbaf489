import Domain
import Foundation
import PaperTrading
import TestSupport

/// A ledger in a fresh directory, a fake feed, a wall clock and a manual clock: what a paper broker
/// needs in a test. The directory is removed when the rig goes.
final class PaperRig: Sendable {
    let directory: URL
    let ledgerURL: URL
    let feed: FakeMarketFeed
    let wall: WallClock
    /// Paces the periodic refresh and the wait for a first quote; never advanced unless a test does.
    let clock = ManualClock()

    /// A Wednesday, 11:00 in New York: the regular session is open.
    static let wednesdayMorning = WallClock.newYork(2026, 11, 25, 11)

    init(start: Date = PaperRig.wednesdayMorning, feed: FakeMarketFeed = FakeMarketFeed()) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PaperTradingTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        ledgerURL = directory.appendingPathComponent("paper-ledger.jsonl")
        self.feed = feed
        wall = WallClock(start)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    func settings(
        startingCash: ExactDecimal = 100_000, commissionPerShare: ExactDecimal = 0, minimum: ExactDecimal = 0,
        allowShort: Bool = false, session: MarketSession = .usRegularHours
    ) -> PaperSettings {
        PaperSettings(
            ledgerURL: ledgerURL, startingCash: startingCash, commissionPerShare: commissionPerShare,
            minimumCommissionPerOrder: minimum, allowShort: allowShort, session: session)
    }

    /// A broker on this rig's ledger, feed and clocks, with a recorder of its events.
    func start(_ settings: PaperSettings? = nil, feed: FakeMarketFeed? = nil) async throws -> (PaperBroker, PaperEventRecorder) {
        let wall = wall
        let broker = try await PaperBroker.start(
            settings: settings ?? self.settings(), feed: feed ?? self.feed, now: { wall.now }, clock: clock)
        return (broker, PaperEventRecorder(broker.events))
    }

    /// The ledger's lines as text.
    func ledgerLines() throws -> [String] {
        try String(contentsOf: ledgerURL, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .dropLast().map(String.init)
    }
}

/// A quote from the fake feed; prices written as the wire sends them, read exactly. A typo traps: it is
/// a mistake in the test itself.
func quote(_ symbol: String, bid: String?, ask: String?, last: String, at time: Date = PaperRig.wednesdayMorning) -> CommonQuote {
    func price(_ text: String) -> ExactDecimal {
        guard let value = ExactDecimal(parsing: text) else { preconditionFailure("\(text) is not a decimal") }
        return value
    }
    return CommonQuote(symbol: symbol, last: price(last), timestamp: time, bid: bid.map(price), ask: ask.map(price))
}
