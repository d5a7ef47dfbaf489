import Domain
import Foundation
import Interactors
import Locking
import Stores
import Testing

@Suite struct AppRuntimeTests {
    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    func makeStore(_ symbols: [String]) throws -> WatchlistStore {
        let store = WatchlistStore(file: nil, seed: symbols)
        _ = try store.load()
        return store
    }

    /// Snapshots go through the feed like every quote: at start and for added symbols, after the feed
    /// follows them (the feed keeps answers only for followed symbols).
    @Test func snapshotsAreAskedOfTheFeedAfterItFollowsTheSymbols() async throws {
        let feed = ManualFeed(brokers: [alpha, beta])
        let interactor = makeRuntime(
            feed: feed, watchlist: try makeStore(["MSFT", "AAPL"]), isDemo: false, now: { t0 }, publish: { _ in }
        )
        await interactor.start()
        #expect(feed.followed.last == ["AAPL", "MSFT"])
        #expect(feed.refreshed == [["MSFT", "AAPL"]])
        await interactor.send(.key(.character("a")))
        for character in "nvda" { await interactor.send(.key(.character(character))) }
        await interactor.send(.key(.enter))
        #expect(feed.followed.last == ["AAPL", "MSFT", "NVDA"])
        #expect(feed.refreshed.last == ["NVDA"])
        await interactor.stop()
        #expect(feed.cancelled)
    }

    @Test func feedUpdatesReachTheView() async throws {
        let feed = ManualFeed(brokers: [alpha])
        let published = Published()
        let interactor = makeRuntime(
            feed: feed, watchlist: try makeStore(["AAPL"]), isDemo: true,
            now: { t0 }, publish: published.publish
        )
        await interactor.start()
        feed.send(MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 123)], brokerStates: ["alpha": .live]))
        let state = await published.first { $0.rows.first?.quote?.last == 123 }
        #expect(state?.brokers.first?.state == .live)
        #expect(state?.isDemo == true)
        await interactor.stop()
    }

    /// A tick changes the screen only as time does: it asks for a timed redraw, which does not hold the
    /// next price back behind a frame that wrote nothing; everything else asks for a change's redraw.
    @Test func aTickSignalsThatTimePassedAndAKeyThatTheStateChanged() async throws {
        let feed = ManualFeed(brokers: [alpha])
        let store = try makeStore(["AAPL"])
        let live = LiveAppState(AppState(brokers: feed.brokers, book: store.book, settings: AppState.Settings(isDemo: true, isSaved: false)))
        let changes = CallCounter(), ticks = CallCounter()
        let interactor = AppRuntime(
            live: live, feed: feed, watchlist: store, now: { t0 }, changed: { changes.call() }, timePassed: { ticks.call() })
        await interactor.send(.tick)
        #expect(ticks.value == 1 && changes.value == 0)
        await interactor.send(.key(.character("j")))
        #expect(ticks.value == 1 && changes.value == 1)
        // Without `timePassed`, a tick is a change like any other.
        let plain = AppRuntime(live: live, feed: feed, watchlist: store, now: { t0 }, changed: { changes.call() })
        await plain.send(.tick)
        #expect(changes.value == 2)
    }

    /// The interactive app's way: the runtime only signals, and the screen builds the view from the live
    /// state when it draws.
    @Test func aRuntimeOverALiveStateSignalsEachChangeAndTheLiveStateShowsIt() async throws {
        let feed = ManualFeed(brokers: [alpha])
        let store = try makeStore(["AAPL"])
        let live = LiveAppState(AppState(brokers: feed.brokers, book: store.book, settings: AppState.Settings(isDemo: true, isSaved: false)))
        let changes = CallCounter()
        let interactor = AppRuntime(live: live, feed: feed, watchlist: store, now: { t0 }, changed: { changes.call() })
        await interactor.start()
        let afterStart = changes.value
        #expect(afterStart >= 1, "starting changed the state")
        #expect(live.viewState().rows.map(\.id) == ["alpha:AAPL"])
        #expect(live.viewState().rows.first?.quote == nil)

        feed.send(MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 123)], brokerStates: ["alpha": .live]))
        let deadline = ContinuousClock.now + .seconds(30)
        while live.viewState().rows.first?.quote?.last != 123, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        let shown = live.viewState()
        #expect(shown.rows.first?.quote?.last == 123)
        #expect(shown.brokers.first?.state == .live)
        #expect(changes.value > afterStart, "the quote was signalled")
        #expect(await interactor.viewState.rows.first?.quote == shown.rows.first?.quote, "the runtime and the screen read the same state")

        await interactor.send(.key(.character("a")))
        for character in "msft" { await interactor.send(.key(.character(character))) }
        await interactor.send(.key(.enter))
        #expect(live.viewState().rows.map(\.id) == ["alpha:AAPL", "alpha:MSFT"])
        #expect(feed.followed.last == ["AAPL", "MSFT"], "the send returned once the feed followed the new symbol")
        await interactor.stop()
    }

    /// Quotes that changed only their rows go to `changedRows` with the update, so the screen can skip a
    /// frame none of them is on; a batch that also moved a broker's state, and every key, to `changed`.
    @Test func quotesThatChangedOnlyTheirRowsAreSignalledWithTheirUpdate() async throws {
        let feed = ManualFeed(brokers: [alpha])
        let store = try makeStore(["AAPL"])
        let live = LiveAppState(AppState(brokers: feed.brokers, book: store.book, settings: AppState.Settings(isDemo: true, isSaved: false)))
        let changes = CallCounter()
        let rows = Locked<[MarketUpdate]>([])
        let interactor = AppRuntime(
            live: live, feed: feed, watchlist: store, now: { t0 }, changed: { changes.call() },
            changedRows: { update in rows.withLock { $0.append(update) } })
        await interactor.start()
        let afterStart = changes.value

        let first = MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 123)], brokerStates: ["alpha": .live])
        feed.send(first)
        let plain = MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 124)])
        feed.send(plain)
        let deadline = ContinuousClock.now + .seconds(30)
        while rows.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(rows.withLock { $0 } == [plain])
        #expect(changes.value == afterStart + 1, "the batch with the broker's state was a change of the whole screen")
        #expect(live.viewState().rows.first?.quote?.last == 124)

        await interactor.send(.key(.character("j")))
        #expect(changes.value == afterStart + 2)
        #expect(rows.withLock { $0.count } == 1)
        await interactor.stop()
    }

    @Test func addingRemovingAndUndoingEditTheWatchlistAndTheFeed() async throws {
        let feed = ManualFeed(brokers: [alpha, beta])
        let published = Published()
        let store = try makeStore(["AAPL"])
        let interactor = makeRuntime(
            feed: feed, watchlist: store, isDemo: true, now: { t0 }, publish: published.publish
        )
        await interactor.start()

        await interactor.send(.key(.character("a")))
        for character in "nvda, msft" { await interactor.send(.key(.character(character))) }
        await interactor.send(.key(.enter))
        var state = await interactor.viewState
        #expect(state.front == .watchlist)
        #expect(store.symbols == ["AAPL", "NVDA", "MSFT"])
        #expect(state.rows.map(\.id) == ["alpha:AAPL", "beta:AAPL", "alpha:MSFT", "beta:MSFT", "alpha:NVDA", "beta:NVDA"])
        #expect(state.selectedIndex == 4, "the first added symbol is selected")
        // A `--symbols`-style store (no file) says that its edits are not saved.
        #expect(state.isSaved == false)
        #expect(state.message == StatusMessage(.info, "Added NVDA, MSFT (this run only: --symbols lists are not saved)", at: t0))
        #expect(feed.followed.last == ["AAPL", "NVDA", "MSFT"])

        await interactor.send(.key(.character("d")))
        state = await interactor.viewState
        #expect(store.symbols == ["AAPL", "MSFT"])
        #expect(state.rows.map(\.id) == ["alpha:AAPL", "beta:AAPL", "alpha:MSFT", "beta:MSFT"])
        #expect(state.message == StatusMessage(.info, "Removed NVDA · u to undo (this run only: --symbols lists are not saved)", at: t0))
        #expect(feed.followed.last == ["AAPL", "MSFT"])

        await interactor.send(.key(.character("u")))
        #expect(store.symbols == ["AAPL", "NVDA", "MSFT"])
        #expect(await interactor.viewState.selectedIndex == 4)
        await interactor.send(.key(.character("u")))
        #expect(await interactor.viewState.message == StatusMessage(.info, "Nothing to undo", at: t0))
        await interactor.stop()
    }

    @Test func anInvalidSymbolKeepsThePromptOpenWithTheReason() async throws {
        let quits = CallCounter()
        let interactor = makeRuntime(
            feed: ManualFeed(brokers: [alpha]), watchlist: try makeStore(["AAPL"]),
            isDemo: true, now: { t0 }, quit: quits.call, publish: { _ in }
        )
        await interactor.send(.key(.character("a")))
        for character in "aapl" { await interactor.send(.key(.character(character))) }
        await interactor.send(.key(.enter))
        #expect(await interactor.viewState.front == .adding(TextPrompt(text: "aapl", error: "AAPL is already in the watchlist")))
        await interactor.send(.key(.backspace))
        #expect(await interactor.viewState.front == .adding(TextPrompt(text: "aap")))
        await interactor.send(.key(.escape))
        #expect(await interactor.viewState.front == .watchlist)
        await interactor.send(.key(.character("q")))
        #expect(quits.value == 1)
    }

    @Test func helpTogglesAndSortCycles() async throws {
        let interactor = makeRuntime(
            feed: ManualFeed(brokers: [alpha]), watchlist: try makeStore([]),
            isDemo: true, now: { t0 }, publish: { _ in }
        )
        await interactor.send(.key(.character("?")))
        #expect(await interactor.viewState.front == .help)
        await interactor.send(.key(.character("?")))
        #expect(await interactor.viewState.front == .watchlist)
        await interactor.send(.key(.character("s")))
        #expect(await interactor.viewState.sort == .changePercent)
        await interactor.send(.key(.character("d")))
        #expect(await interactor.viewState.message == StatusMessage(.info, "Nothing to remove", at: t0))
    }
}

/// Balances from a table, or a failure.
struct TableAccountService: AccountService {
    let branding: ServiceBranding
    var balances: [AccountBalance] = []
    var failure: BrokerError?

    func balances() async throws(BrokerError) -> [AccountBalance] {
        if let failure { throw failure }
        return balances
    }
}

@Suite struct AccountsPanelInteractorTests {
    @Test func openingThePanelFetchesEveryBrokersBalancesAndClosingHidesIt() async throws {
        let store = WatchlistStore(file: nil, seed: ["AAPL"])
        _ = try store.load()
        let published = Published()
        let interactor = makeRuntime(
            feed: ManualFeed(brokers: [alpha, beta]),
            accountServices: [
                TableAccountService(branding: alpha, balances: [AccountBalance(accountID: "A-1", cash: 10, buyingPower: 20, equity: 30)]),
                TableAccountService(branding: beta, failure: .unauthorized(hint: "check BETA_TOKEN")),
            ],
            watchlist: store, isDemo: false, now: { t0 }, publish: published.publish
        )
        await interactor.send(.key(.character("A")))
        let opened = await interactor.viewState.accounts
        #expect(opened?.entries.map(\.branding.id) == ["alpha", "beta"])
        let filled = await published.first { state in
            state.accounts?.entries.allSatisfy { !$0.isLoading } == true
        }
        let entries = try #require(filled?.accounts?.entries)
        #expect(entries[0].balances == [AccountBalance(accountID: "A-1", cash: 10, buyingPower: 20, equity: 30)])
        #expect(entries[1].error == "unauthorized, check BETA_TOKEN")
        await interactor.send(.key(.character("A")))
        #expect(await interactor.viewState.accounts == nil)
    }
}

@Suite struct WatchlistFileNotesTests {
    @Test func aCorruptFileFoundDuringAnEditIsAnnounced() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cb-notes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = WatchlistStore(file: WatchlistFile(directory: directory), seed: ["AAPL"])
        _ = try store.load()
        // Another program writes garbage after we loaded.
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: directory.appendingPathComponent("watchlist.json"))
        let interactor = makeRuntime(
            feed: ManualFeed(brokers: [alpha]), watchlist: store, isDemo: true,
            now: { t0 }, publish: { _ in }
        )
        await interactor.send(.key(.character("a")))
        for character in "msft" { await interactor.send(.key(.character(character))) }
        await interactor.send(.key(.enter))
        let message = try #require(await interactor.viewState.message)
        #expect(message.kind == .warning)
        #expect(message.text.contains("watchlist.json.corrupt-"), "\(message.text)")
        #expect(store.symbols == ["AAPL", "MSFT"])
    }

    /// A save blocks on the file's lock and fsync: it runs on a thread of its own, so the runtime's thread
    /// (in the app, the market-data thread, with the streams and the hub) stays free while it waits; the
    /// key's `send` returns once the edit is saved and shown, and the quotes that came meanwhile follow.
    @Test func aSaveWaitingForTheFileLockLeavesTheRuntimesThreadFreeAndTheKeyReturnsOnceSaved() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("AppRuntimeSave-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = WatchlistStore(file: WatchlistFile(directory: directory), seed: ["AAPL"])
        _ = try store.load()
        // Another instance holds the file's lock until it is let go.
        let other = WatchlistStore(file: WatchlistFile(directory: directory), seed: [])
        _ = try other.load()
        let holding = DispatchSemaphore(value: 0), letGo = DispatchSemaphore(value: 0)
        let holder = Thread {
            _ = try? other.edit { (_: inout WatchlistBook) throws(WatchlistBook.EditError) in
                holding.signal()
                letGo.wait()
            }
        }
        holder.start()
        let executor = DedicatedThreadExecutor(name: "cb test runtime")
        let feed = ManualFeed(brokers: [alpha])
        let published = Published()
        let runtime = AppRuntime(
            live: LiveAppState(AppState(brokers: [alpha], book: store.book, settings: AppState.Settings(isDemo: true))),
            executor: executor, feed: feed, watchlist: store, now: { t0 }, publish: published.publish)
        await runtime.start()
        await withCheckedContinuation { continuation in
            Thread { holding.wait(); continuation.resume() }.start()
        }

        for key in "anvda" { await runtime.send(.key(.character(key))) }
        let saved = Locked(false)
        let viewsBefore = published.all.count
        let adding = Task {
            await runtime.send(.key(.enter))
            saved.withLock { $0 = true }
        }
        // The Enter is handled (its view published) and its save started: with the save on the runtime's
        // thread, handling would block in the file lock before publishing.
        let deadline = ContinuousClock.now + .seconds(30)
        while published.all.count == viewsBefore, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(2)) }
        #expect(published.all.count > viewsBefore, "the Enter was handled while its save waited")
        feed.send(MarketUpdate(quotes: [QuoteKey(brandID: "alpha", symbol: "AAPL"): quote("AAPL", 123)]))
        let onTheThread = await Task(executorPreference: executor) { AppRuntimeTests.threadName() }.value
        #expect(onTheThread == "cb test runtime", "a job on the runtime's thread ran while the save waited")
        #expect(!saved.withLock { $0 }, "the key's send waits for its save")

        letGo.signal()
        await adding.value
        let view = await runtime.viewState
        #expect(view.rows.map(\.key.symbol).contains("NVDA"))
        #expect(await published.first { $0.rows.contains { $0.quote?.last == 123 } } != nil, "the quote that came during the save is shown")
        let reread = WatchlistStore(file: WatchlistFile(directory: directory), seed: [])
        _ = try reread.load()
        #expect(reread.book.lists.first?.symbols.contains("NVDA") == true)
        await runtime.stop()
    }
}
