import Domain
import Foundation
import Interactors
import Stores
import Synchronization
import Testing

/// Issue 12: Esc closes every overlay, old messages never come back, the message log, adding what is
/// valid from mixed input, and a row that keeps its price through errors (issue 13, item 3).
@Suite struct MessagesAndOverlaysTests {
    func makeInteractor(
        symbols: [String] = ["AAPL"], accounts: [any AccountService] = [], now: @escaping @Sendable () -> Date = { t0 }
    ) throws -> WatchlistInteractor {
        let store = WatchlistStore(file: nil, seed: symbols)
        _ = try store.load()
        return WatchlistInteractor(
            feed: ManualFeed(brokers: [alpha]), quoteServices: [], accountServices: accounts,
            watchlist: store, isDemo: true, now: now, publish: { _ in })
    }

    @Test func escClosesTheAccountsPanelFirstThenDismissesTheMessage() async throws {
        let interactor = try makeInteractor(accounts: [TableAccountService(branding: alpha)])
        _ = await interactor.handle(.cycleSort)
        _ = await interactor.handle(.toggleAccounts)
        #expect(await interactor.viewState.accounts != nil)
        _ = await interactor.handle(.dismiss)
        #expect(await interactor.viewState.accounts == nil)
        #expect(await interactor.viewState.message?.text == "Sorted by change %", "the first Esc only closes the panel")
        _ = await interactor.handle(.dismiss)
        #expect(await interactor.viewState.message == nil)
    }

    @Test func aCancelledPromptDoesNotBringBackAnOldMessage() async throws {
        let interactor = try makeInteractor()
        _ = await interactor.handle(.removeSelected)
        #expect(await interactor.viewState.message?.text.hasPrefix("Removed AAPL") == true)
        _ = await interactor.handle(.beginAdd)
        _ = await interactor.handle(.cancelInput)
        #expect(await interactor.viewState.message == nil)
        #expect(await interactor.viewState.messageLog.map(\.text).first?.hasPrefix("Removed AAPL") == true, "the log keeps it")
    }

    @Test func theMessageLogKeepsEveryMessageWithItsTimeAndMOpensIt() async throws {
        let clock = Counter()
        let interactor = try makeInteractor(now: { t0.addingTimeInterval(Double(clock.next())) })
        _ = await interactor.handle(.cycleSort)
        _ = await interactor.handle(.cycleSort)
        _ = await interactor.handle(.undoRemove)
        let log = await interactor.viewState.messageLog
        #expect(log.map(\.text) == ["Sorted by change %", "Sorted by last", "Nothing to undo"])
        #expect(log.map(\.at) == [t0, t0.addingTimeInterval(1), t0.addingTimeInterval(2)])
        _ = await interactor.handle(.toggleMessageLog)
        #expect(await interactor.viewState.mode == .messageLog)
        _ = await interactor.handle(.toggleMessageLog)
        #expect(await interactor.viewState.mode == .normal)
    }

    @Test func theLogIsBounded() {
        var state = WatchlistState(brokers: [alpha], symbols: [], isDemo: true)
        for index in 0..<(WatchlistState.messageLogLimit + 7) {
            state.show(StatusMessage(.info, "m\(index)", at: t0))
        }
        #expect(state.messageLog.count == WatchlistState.messageLogLimit)
        #expect(state.messageLog.first?.text == "m7")
    }

    /// `tsla $$$` adds TSLA (as `tsla aapl` does), names what was not added and why, and the prompt keeps it.
    @Test func mixedInputAddsWhatIsValidAndKeepsTheRestInThePrompt() async throws {
        let interactor = try makeInteractor()
        _ = await interactor.handle(.beginAdd)
        for character in "tsla $$$ aapl" { _ = await interactor.handle(.inputCharacter(character)) }
        _ = await interactor.handle(.submitInput)
        let state = await interactor.viewState
        #expect(state.rows.map(\.key.symbol) == ["AAPL", "TSLA"])
        #expect(state.mode == .adding(text: "$$$", error: "not added: $$$ contains '$'; use letters, digits, . - / ^"))
        #expect(state.message?.text.hasPrefix("Added TSLA (already listed: AAPL)") == true)
        #expect(state.message?.text.contains("not added: $$$") == true)
    }

    /// Several start-up notes are logged one by one and shown together as the most severe kind.
    @Test func startUpNotesAreLoggedEachAndShownTogether() throws {
        var state = WatchlistState(brokers: [alpha], symbols: [], isDemo: true)
        state.show([StatusMessage(.info, "Tradier: sandbox polls", at: t0), StatusMessage(.warning, "config readable by others", at: t0)])
        #expect(state.message == StatusMessage(.warning, "Tradier: sandbox polls · config readable by others", at: t0))
        #expect(state.messageLog.count == 2)
    }

    /// A row that has a price keeps it when its broker later fails for it (a 500, a bad body): the error is
    /// the footer's and the status line's to tell.
    @Test func aRowWithAPriceKeepsItThroughErrors() {
        var state = WatchlistState(brokers: [alpha], symbols: ["AAPL"], isDemo: false)
        let key = QuoteKey(brandID: "alpha", symbol: "AAPL")
        state.apply(MarketUpdate(quotes: [key: quote("AAPL", 495.13)]), receivedAt: t0)
        state.apply(MarketUpdate(failures: [key: .server(status: 500)]), receivedAt: t0)
        #expect(state.rows.first?.quote?.last == 495.13)
        #expect(state.rows.first?.error == nil)
        state.apply(MarketUpdate(brokerStates: ["alpha": .reconnecting(attempt: 2, reason: "reset")]), receivedAt: t0)
        #expect(state.rows.first?.error == nil)
        // A row without a price says why.
        var fresh = WatchlistState(brokers: [alpha], symbols: ["MSFT"], isDemo: false)
        fresh.apply(MarketUpdate(failures: [QuoteKey(brandID: "alpha", symbol: "MSFT"): .unknownSymbol("MSFT")]), receivedAt: t0)
        #expect(fresh.rows.first?.error == "unknown symbol")
    }
}

/// Hands out 0, 1, 2, … to an injected clock.
final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }
}
