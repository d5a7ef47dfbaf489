import Domain
import Foundation
import Locking
import Stores

/// Runs the app: the one caller of `AppState.update`. It feeds events in one at a time, carries out the
/// effects that come back (following symbols and asking for snapshots on the feed, saving edits, asking
/// for balances), turns their results into events, and tells the screen after every change. No
/// decision is made here.
///
/// The state lives in a `LiveAppState` that the drawing thread reads once per frame; a runtime made with
/// `publish:` (tests, tools) also hands over a view state after every change.
///
/// The actor runs on the executor it is given: the interactive app gives it the market-data thread's
/// (`DedicatedThreadExecutor`), so the hub hands it each batch with a queue append instead of waking a
/// pool thread. Nothing on it may block for long, so saving an edit (an flock and two fsyncs) runs on a
/// thread kept for saves, one save after the other, and its outcome comes back as an event (`save`).
/// While a save runs, the streams, the hub, the paper broker and a bus this process leads go on; the
/// runtime takes its next quotes once the save is handled (the hub conflates them meanwhile), as when
/// saves ran here: handling an alert's save sets the alerts to what the file holds, and a quote handled
/// before that could fire or re-arm an alert only for the save's outcome to undo it.
public actor AppRuntime {
    public nonisolated let live: LiveAppState
    private nonisolated let executor: any SerialExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private let watchlist: WatchlistStore
    private let accountServices: [any AccountService]
    private let feed: any MarketFeed
    private let now: @Sendable () -> Date
    private let publish: (@Sendable (WatchlistViewState) -> Void)?
    private let changed: @Sendable () -> Void
    private let changedRows: (@Sendable (MarketUpdate) -> Void)?
    private let timePassed: @Sendable () -> Void
    private let bell: @Sendable () -> Void
    private let notify: @Sendable (DesktopNotification) -> Void
    private let quit: @Sendable () -> Void
    private var subscription: MarketFeedSubscription?
    private var followed: Set<String> = []
    /// Changes to the followed set, applied in order, one after the other.
    private var following: Task<Void, Never>?
    /// Set once `following` has finished: awaiting a finished task's value still hops off this actor and
    /// back, which every quote batch paid for.
    private var followingDone = TaskDone()
    /// Saves of edits, applied in order, off this actor's thread (see `save`).
    private var saving: Task<Void, Never>?
    private var savingDone = TaskDone()
    private var feedTask: Task<Void, Never>?
    private var accountsTask: Task<Void, Never>?
    private var portfolioTask: Task<Void, Never>?
    private var activityTask: Task<Void, Never>?
    private let trading: [String: TradingServices]
    private let activity: AsyncStream<TradingActivity>?

    /// `watchlist` must already be loaded. After every change, from this actor, `changed` is called (the
    /// screen then reads `live` when it draws) and `publish`, if given, with the view as it is then
    /// (tests and tools that look at each view). After a `.tick`, `timePassed` is called instead (by
    /// default `changed`): the screen redraws for time alone, which must not hold back the next change.
    /// After quotes that changed only their rows (`AppState.rowsChanged`), `changedRows` is called with
    /// them instead, if given: the screen may then skip a frame none of those rows is on.
    /// `executor` runs the actor; by default one thread that every runtime made without one shares.
    public init(
        live: LiveAppState,
        executor: (any SerialExecutor)? = nil,
        feed: any MarketFeed,
        accountServices: [any AccountService] = [],
        trading: [TradingServices] = [],
        activity: AsyncStream<TradingActivity>? = nil,
        watchlist: WatchlistStore,
        now: @escaping @Sendable () -> Date = Date.init,
        bell: @escaping @Sendable () -> Void = {},
        notify: @escaping @Sendable (DesktopNotification) -> Void = { _ in },
        quit: @escaping @Sendable () -> Void = {},
        changed: @escaping @Sendable () -> Void = {},
        changedRows: (@Sendable (MarketUpdate) -> Void)? = nil,
        timePassed: (@Sendable () -> Void)? = nil,
        publish: (@Sendable (WatchlistViewState) -> Void)? = nil
    ) {
        self.live = live
        self.executor = executor ?? Self.sharedExecutor
        self.watchlist = watchlist
        self.accountServices = accountServices
        self.trading = Dictionary(trading.map { ($0.branding.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.activity = activity
        self.feed = feed
        self.now = now
        self.bell = bell
        self.notify = notify
        self.quit = quit
        self.publish = publish
        self.changed = changed
        self.changedRows = changedRows
        self.timePassed = timePassed ?? changed
    }

    /// For runtimes made without an executor (tests, tools): one thread, made when first needed.
    private static let sharedExecutor = DedicatedThreadExecutor(name: "app runtime")
    /// Where saves wait for the file's lock and the disk: a thread of their own, not the cooperative
    /// pool, whose two threads (on two cores) two waiting saves would take from every other task.
    private static let savesExecutor = DedicatedThreadExecutor(name: "saves")

    public var viewState: WatchlistViewState { live.viewState() }

    /// Subscribes to the feed (following nothing yet) and sends `.started`.
    public func start() async {
        let subscription = await feed.subscribe(symbols: [])
        self.subscription = subscription
        // On the market-data thread in the app (its preferred executor), beside the hub that feeds it.
        feedTask = Task.preferred { [weak self] in
            for await update in subscription.updates {
                await self?.send(.market(update))
            }
        }
        if let activity {
            activityTask = Task { [weak self] in
                for await change in activity {
                    await self?.send(.trading(change))
                }
            }
        }
        await send(.started)
    }

    /// Ends the feed subscription and outstanding requests, then waits for the saves under way, those of
    /// the last quotes and trading events included: an alert that fired just before quitting is in the
    /// file.
    public func stop() async {
        feedTask?.cancel()
        accountsTask?.cancel()
        portfolioTask?.cancel()
        activityTask?.cancel()
        await subscription?.cancel()
        subscription = nil
        await feedTask?.value
        await activityTask?.value
        while let saving, !savingDone.isSet { await saving.value }
    }

    /// Handles `event` and every event its effects raise, in order, then publishes. Handling never
    /// suspends, so events are handled one at a time in the order they arrive; the call returns once the
    /// edits they made are saved and handled (`.persisted`) and the feed follows what the state follows.
    /// It waits for the saves up to its own, not for the ones that later events start.
    public func send(_ event: AppEvent) async {
        handle(event)
        if let saving, !savingDone.isSet { await saving.value }
        if let following, !followingDone.isSet { await following.value }
    }

    private func handle(_ event: AppEvent) {
        var queue = [event]
        // Only for the event alone: quotes that changed only their rows raised nothing.
        var rows: MarketUpdate?, handled = 0
        while !queue.isEmpty {
            let next = queue.removeFirst(), at = now(), wantsRows = changedRows != nil && handled == 0
            handled += 1
            // Effects run after the lock is let go: one may stop the UI thread, which could be waiting
            // for the lock to draw.
            let effects = live.update { state in
                let effects = state.update(next, at: at)
                if wantsRows { rows = state.rowsChanged(by: next, raising: effects) }
                return effects
            }
            for effect in effects {
                if let raised = perform(effect) { queue.append(raised) }
            }
        }
        publish?(live.viewState())
        // A tick changes what is shown only as time does (a message fading): the screen may redraw without
        // holding back the next price behind a frame that wrote nothing.
        if case .tick = event {
            timePassed()
        } else if handled == 1, let rows, let changedRows {
            changedRows(rows)
        } else {
            changed()
        }
    }

    // MARK: - Effects

    /// Carries out `effect`; returns the event it raises at once, if any (a saved edit).
    private func perform(_ effect: AppEffect) -> AppEvent? {
        switch effect {
        case .follow(let symbols):
            followed.formUnion(symbols)
            follow(followed)
        case .unfollow(let symbols):
            followed.subtract(symbols)
            follow(followed)
        case .persist(let edit):
            save { [watchlist] in .persisted(edit, Self.apply(edit, to: watchlist)) }
        case .fetchSnapshot(let symbols):
            refresh(symbols)
        case .fetchAccounts:
            fetchAccounts()
        case .stopFetchingAccounts:
            accountsTask?.cancel()
            accountsTask = nil
        case .fetchPortfolio:
            fetchPortfolio()
        case .placeOrder(let brokerID, let request):
            guard let orders = trading[brokerID]?.orders else {
                return .orderPlaced(brokerID: brokerID, request, .failure(.orderRejected(reason: "\(brokerID) does not take orders")))
            }
            Task { [weak self] in
                let result = await TradingServices.place(request, at: orders)
                await self?.send(.orderPlaced(brokerID: brokerID, request, result))
            }
        case .cancelOrder(let brokerID, let id):
            guard let orders = trading[brokerID]?.orders else {
                return .orderCancelled(brokerID: brokerID, id, .failure(.orderRejected(reason: "\(brokerID) does not take orders")))
            }
            Task { [weak self] in
                let result = await TradingServices.cancel(id, at: orders)
                await self?.send(.orderCancelled(brokerID: brokerID, id, result))
            }
        case .bell:
            bell()
        case .notify(let notification):
            notify(notification)
        case .persistAlerts(let edit):
            let at = now()
            save { [watchlist] in .alertsPersisted(edit, Self.apply(edit, at: at, to: watchlist)) }
        case .quit:
            quit()
        }
        return nil
    }

    private func follow(_ symbols: Set<String>) {
        guard let subscription else { return }
        let previous = following, done = TaskDone()
        followingDone = done
        following = Task {
            await previous?.value
            await subscription.setSymbols(symbols)
            done.set()
        }
    }

    /// Snapshots go through the feed like every quote. After the follows before it: the feed keeps only
    /// answers for symbols someone follows.
    private func refresh(_ symbols: [String]) {
        let previous = following, done = TaskDone()
        let feed = feed
        followingDone = done
        following = Task {
            await previous?.value
            await feed.refresh(Set(symbols))
            done.set()
        }
    }

    /// Runs `body` (a save, which blocks on the file's lock and fsync) on the saves' thread after the saves
    /// before it, then handles the event it returns here. `send` waits for it, so an edit is saved and
    /// shown before the next key is handled, as when saves ran on this actor.
    private func save(_ body: @escaping @Sendable () -> AppEvent) {
        let previous = saving, done = TaskDone()
        savingDone = done
        saving = Task.detached(executorPreference: Self.savesExecutor) { [weak self] in
            await previous?.value
            let saved = body()
            await self?.handle(saved)
            done.set()
        }
    }

    /// The store merges the edit with what other instances wrote, under its file lock.
    private static func apply(_ edit: WatchlistEdit, to watchlist: WatchlistStore) -> Result<WatchlistEditOutcome, WatchlistStoreError> {
        do throws(WatchlistStoreError) {
            let result = try watchlist.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in
                try edit.apply(to: &book)
            }
            var outcome: WatchlistEditOutcome
            switch result {
            case .success(let edited): outcome = edited
            case .failure(let refusal): outcome = WatchlistEditOutcome(lists: [], refusal: refusal)
            }
            outcome.lists = watchlist.book.lists
            outcome.notes = watchlist.takeEditNotes()
            return .success(outcome)
        } catch {
            return .failure(error)
        }
    }

    /// Alerts live in the watchlist file: the edit is applied to what it holds now, under its lock.
    private static func apply(_ edit: AlertEdit, at: Date, to watchlist: WatchlistStore) -> Result<AlertEditOutcome, WatchlistStoreError> {
        do throws(WatchlistStoreError) {
            let result = try watchlist.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in
                edit.apply(to: &book.alerts, at: at)
            }
            guard case .success(var outcome) = result else { preconditionFailure("an alert edit cannot be refused") }
            outcome.notes = watchlist.takeEditNotes()
            return .success(outcome)
        } catch {
            return .failure(error)
        }
    }

    /// Every trading broker at once; each answers on its own, so a slow broker holds up nobody.
    private func fetchPortfolio() {
        portfolioTask?.cancel()
        let services = Array(trading.values)
        portfolioTask = Task { [weak self] in
            await withTaskGroup(of: (String, Result<PortfolioSnapshot, BrokerError>).self) { group in
                for service in services {
                    group.addTask { (service.branding.id, await service.portfolio()) }
                }
                for await (brokerID, result) in group {
                    guard !Task.isCancelled else { return }
                    await self?.send(.portfolio(brokerID: brokerID, result))
                }
            }
        }
    }

    private func fetchAccounts() {
        accountsTask?.cancel()
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
                    guard !Task.isCancelled else { return }
                    await self?.send(.accounts(entry))
                }
            }
        }
    }
}
