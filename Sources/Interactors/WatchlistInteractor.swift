import Domain
import Foundation
import Stores

/// Runs the watchlist screen: turns actions into state changes and effects (persisting the watchlist,
/// following symbols on the market feed, asking brokers for snapshots), and publishes a new view state
/// after every change. All decisions are in `WatchlistState`; this actor only sequences effects.
public actor WatchlistInteractor {
    public enum Outcome: Sendable, Equatable { case keepRunning, quit }

    private var state: WatchlistState
    private let watchlist: WatchlistStore
    private let quoteServices: [any QuoteService]
    private let accountServices: [any AccountService]
    private let feed: any MarketFeed
    private let now: @Sendable () -> Date
    private let publish: @Sendable (WatchlistViewState) -> Void
    private var subscription: MarketFeedSubscription?
    private var feedTask: Task<Void, Never>?
    private var snapshotTasks: [Task<Void, Never>] = []
    private var accountsTask: Task<Void, Never>?

    /// `watchlist` must already be loaded. `publish` is called after every change, from this actor.
    public init(
        feed: any MarketFeed,
        quoteServices: [any QuoteService],
        accountServices: [any AccountService] = [],
        watchlist: WatchlistStore,
        isDemo: Bool,
        securityWarning: String? = nil,
        staleAfter: TimeInterval = 30,
        highlightFor: TimeInterval = 1,
        initialMessages: [StatusMessage] = [],
        now: @escaping @Sendable () -> Date = Date.init,
        publish: @escaping @Sendable (WatchlistViewState) -> Void
    ) {
        self.state = WatchlistState(
            brokers: feed.brokers, symbols: watchlist.symbols, isDemo: isDemo,
            staleAfter: staleAfter, highlightFor: highlightFor
        )
        self.state.show(initialMessages)
        self.state.securityWarning = securityWarning
        self.state.isSaved = watchlist.file != nil
        self.watchlist = watchlist
        self.quoteServices = quoteServices
        self.accountServices = accountServices
        self.feed = feed
        self.now = now
        self.publish = publish
    }

    public var viewState: WatchlistViewState { state.viewState() }

    /// Shows the watchlist, asks every broker for a snapshot at once, then follows the feed.
    public func start() async {
        publish(state.viewState())
        requestSnapshots(for: state.symbols)
        let subscription = await feed.subscribe(symbols: Set(state.symbols))
        self.subscription = subscription
        feedTask = Task { [weak self] in
            for await update in subscription.updates {
                await self?.receive(update)
            }
        }
    }

    /// Ends the feed subscription and outstanding snapshot requests.
    public func stop() async {
        feedTask?.cancel()
        accountsTask?.cancel()
        snapshotTasks.forEach { $0.cancel() }
        snapshotTasks.removeAll()
        await subscription?.cancel()
        subscription = nil
    }

    public func handle(_ action: WatchlistAction) async -> Outcome {
        switch action {
        case .quit:
            return .quit
        case .moveUp: state.moveSelection(by: -1)
        case .moveDown: state.moveSelection(by: 1)
        case .pageUp: state.page(down: false)
        case .pageDown: state.page(down: true)
        case .moveToTop: state.moveSelection(toTop: true)
        case .moveToBottom: state.moveSelection(toTop: false)
        case .viewportChanged(let rows): state.setVisibleRows(rows)
        case .cycleSort:
            state.cycleSort()
            say(.info, "Sorted by \(state.sort.label)")
        case .toggleHelp:
            state.mode = state.mode == .help ? .normal : .help
        case .toggleMessageLog:
            state.mode = state.mode == .messageLog ? .normal : .messageLog
        case .toggleAccounts:
            toggleAccounts()
        case .dismiss:
            if state.accounts != nil {
                toggleAccounts()
            } else {
                state.dismissMessage()
            }
        case .beginAdd:
            // The prompt takes the status line; what it showed is in the log and must not come back
            // when the prompt closes.
            state.dismissMessage()
            state.mode = .adding(text: "", error: nil)
        case .inputCharacter(let character):
            if case .adding(let text, _) = state.mode, text.count < 200 {
                state.mode = .adding(text: text + String(character), error: nil)
            }
        case .inputBackspace:
            if case .adding(let text, _) = state.mode {
                state.mode = .adding(text: String(text.dropLast()), error: nil)
            }
        case .cancelInput:
            state.mode = .normal
        case .submitInput:
            await submitAddPrompt()
        case .removeSelected:
            await removeSelected()
        case .undoRemove:
            await undoRemove()
        }
        announceWatchlistFileNotes()
        publish(state.viewState())
        return .keepRunning
    }

    /// An edit can find the file corrupt (another program wrote it) and move it aside; say where, rather
    /// than whatever the action itself reported.
    private func announceWatchlistFileNotes() {
        let notes = watchlist.takeEditNotes()
        guard !notes.isEmpty else { return }
        say(.warning, notes.map(\.description).joined(separator: " · "))
    }

    private func say(_ kind: StatusMessage.Kind, _ text: String) {
        state.show(StatusMessage(kind, text, at: now()))
    }

    /// Said after an edit in a run whose list is not saved (`--symbols`), so nobody expects it next time.
    private var unsavedNote: String {
        state.isSaved ? "" : " (this run only: --symbols lists are not saved)"
    }

    // MARK: - Feed

    func receive(_ update: MarketUpdate) {
        state.apply(update, receivedAt: now())
        publish(state.viewState())
    }

    func receive(_ snapshot: FanOutResult) {
        state.apply(snapshot, receivedAt: now())
        publish(state.viewState())
    }

    private func requestSnapshots(for symbols: [String]) {
        guard !symbols.isEmpty, !quoteServices.isEmpty else { return }
        snapshotTasks.removeAll { $0.isCancelled }
        let services = quoteServices
        snapshotTasks.append(Task { [weak self] in
            for await result in QuoteFanOut.fetch(symbols, from: services) {
                await self?.receive(result)
            }
        })
    }

    private func followCurrentSymbols() async {
        await subscription?.setSymbols(Set(state.symbols))
    }

    // MARK: - Accounts

    /// Opening the panel fetches every broker's balances at once; each broker's row fills in as it answers.
    private func toggleAccounts() {
        accountsTask?.cancel()
        guard state.accounts == nil else {
            state.accounts = nil
            return
        }
        state.accounts = AccountsPanel(entries: accountServices.map { AccountsPanelEntry(branding: $0.branding, isLoading: true) })
        let services = accountServices
        accountsTask = Task { [weak self] in
            await withTaskGroup(of: AccountsPanelEntry.self) { group in
                for service in services {
                    group.addTask {
                        do throws(BrokerError) {
                            return AccountsPanelEntry(branding: service.branding, balances: try await service.balances())
                        } catch {
                            return AccountsPanelEntry(branding: service.branding, error: error.description)
                        }
                    }
                }
                for await entry in group {
                    await self?.receive(entry)
                }
            }
        }
    }

    func receive(_ entry: AccountsPanelEntry) {
        guard var panel = state.accounts, let index = panel.entries.firstIndex(where: { $0.branding.id == entry.branding.id }) else { return }
        panel.entries[index] = entry
        state.accounts = panel
        publish(state.viewState())
    }

    // MARK: - Editing

    private func submitAddPrompt() async {
        guard case .adding(let text, _) = state.mode else { return }
        switch AddSymbolsInput.parse(text, existing: state.symbols) {
        case .rejected(let reason):
            state.mode = .adding(text: text, error: reason)
        case .add(let new, let alreadyListed, let invalid):
            do {
                let added = try watchlist.add(new)
                state.setSymbols(watchlist.symbols)
                if let first = added.first { state.select(symbol: first) }
                var text = added.isEmpty ? "Nothing new to add" : "Added \(added.joined(separator: ", "))"
                if !alreadyListed.isEmpty { text += " (already listed: \(alreadyListed.joined(separator: ", ")))" }
                text += unsavedNote
                if invalid.isEmpty {
                    state.mode = .normal
                    say(.info, text)
                } else {
                    // What was not added stays in the prompt, with why, to be fixed in place.
                    let reasons = invalid.map(\.reason).joined(separator: " · ")
                    say(.warning, "\(text) · not added: \(reasons)")
                    state.mode = .adding(text: invalid.map(\.text).joined(separator: " "), error: "not added: \(reasons)")
                }
                await followCurrentSymbols()
                requestSnapshots(for: added)
            } catch {
                state.mode = .adding(text: text, error: "not saved: \(error.description)")
            }
        }
    }

    private func removeSelected() async {
        guard let symbol = state.selectedRow?.key.symbol else {
            say(.info, "Nothing to remove")
            return
        }
        do {
            guard let index = try watchlist.remove(symbol) else {
                state.setSymbols(watchlist.symbols)
                return
            }
            state.noteRemoved(symbol, at: index)
            state.setSymbols(watchlist.symbols)
            say(.info, "Removed \(symbol) · u to undo\(unsavedNote)")
            await followCurrentSymbols()
        } catch {
            say(.error, "Could not remove \(symbol): \(error.description)")
        }
    }

    private func undoRemove() async {
        guard let last = state.popUndo() else {
            say(.info, "Nothing to undo")
            return
        }
        do {
            try watchlist.insert(last.symbol, at: last.index)
            state.setSymbols(watchlist.symbols)
            state.select(symbol: last.symbol)
            say(.info, "Restored \(last.symbol)\(unsavedNote)")
            await followCurrentSymbols()
            requestSnapshots(for: [last.symbol])
        } catch {
            say(.error, "Could not restore \(last.symbol): \(error.description)")
        }
    }
}
