import Domain
import Foundation
import Stores

/// The paper broker: takes orders like a real broker and fills them from the live quotes of another
/// broker, its source, keeping every order and fill in an append-only ledger (a `Journal`) that it
/// replays on start.
///
/// How it works:
/// - The ledger is the truth. Every change is a `PaperLedgerRecord` appended (and `fsync`ed) first and
///   applied to the state (`PaperLedgerState`) after; a fill is published on `events` only once its line
///   is on disk. Replaying the file at start rebuilds the same account, orders and fills.
/// - Quotes come from the `MarketFeed`, for the symbols of open orders and positions only, and only the
///   source broker's count (`QuoteKey.brandID == settings.sourceBrokerID`). Each one is judged against
///   that symbol's open orders by the pure fill rules (`FillRules`), and revalues that symbol's position
///   alone (`PaperValuation`).
/// - Orders wait while `settings.session` is closed; day orders expire at their session's close, checked
///   on each quote and by the periodic `refresh()`.
///
/// Sharing one ledger between instances (two terminals): every decision is made under the journal's
/// lock, after applying what the others appended (`Journal.append(deciding:)`): placing an order
/// (judged on the cash and shares the others left), filling, cancelling and expiring one. So a fill is
/// claimed by the first instance that takes the lock with a quote that fills it; the second finds the
/// order already filled when it applies the first one's line, and writes nothing. Any instance may fill
/// any open order, whoever placed it, so orders keep working when the terminal that placed them quits.
/// Order ids (`P-<line>`) and fill ids (`F-<line>`) are the ledger line that holds them, unique by
/// construction. Between decisions, `refresh()` (every `settings.refreshInterval`) brings in the others'
/// lines, so both terminals show the same positions.
///
/// Start it with `start(settings:feed:now:clock:)`, stop it with `stop()` (nothing is lost without it:
/// every line is on disk when written, but its tasks and feed subscription live until then). It runs
/// on a thread of its own (`PaperBrokerThread`), so waiting on the disk never holds a thread of the
/// cooperative pool.
///
/// Simplified on purpose: no partial fills, no queue position, no borrow fees, no holidays (see
/// `FillRules` and `MarketSession`).
public actor PaperBroker: OrderService, PositionService, FillService, AccountService {
    public static let branding = ServiceBranding(id: "paper", name: "Paper", glyph: "P", color: .green)

    public nonisolated let branding: ServiceBranding = PaperBroker.branding
    public nonisolated let settings: PaperSettings
    /// What changed, in order, from the start until `stop()`. Read it from one place; it buffers
    /// everything until read.
    public nonisolated let events: AsyncStream<PaperEvent>

    private nonisolated let thread: PaperBrokerThread
    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    private let journal: Journal<PaperLedgerRecord>
    private let feed: any MarketFeed
    private let now: @Sendable () -> Date
    private let clock: any Clock<Duration>
    private let eventSink: AsyncStream<PaperEvent>.Continuation

    private var state: PaperLedgerState
    private var valuation: PaperValuation
    /// The source's latest quote per followed symbol.
    private var quotes: [String: QuoteSnapshot] = [:]
    private var lastSummary: PaperAccountSummary?
    /// Set when the ledger can no longer be trusted or written: says why and what to do.
    private var haltReason: String?
    private var stopped = false

    private var subscription: MarketFeedSubscription?
    /// The symbols last sent to the feed.
    private var followed: Set<String> = []
    private var sendingSymbols = false
    /// `place` calls waiting for a first quote, per symbol.
    private var quoteWaiters: [String: [Int: CheckedContinuation<Void, Never>]] = [:]
    /// `place` and `replace` calls under way, per symbol: their symbols stay followed (and their quotes
    /// kept) until they are done, whatever else changes meanwhile.
    private var placementsUnderWay: [String: Int] = [:]
    private var nextWaiterID = 0
    private var tasks: [Task<Void, Never>] = []

    private init(
        settings: PaperSettings, journal: Journal<PaperLedgerRecord>, feed: any MarketFeed,
        now: @escaping @Sendable () -> Date, clock: any Clock<Duration>
    ) {
        self.settings = settings
        self.journal = journal
        self.feed = feed
        self.now = now
        self.clock = clock
        self.thread = PaperBrokerThread(name: "paper broker")
        (events, eventSink) = AsyncStream<PaperEvent>.makeStream()
        state = PaperLedgerState(brokerID: PaperBroker.branding.id, configuration: settings.accountConfiguration)
        valuation = PaperValuation(brokerID: PaperBroker.branding.id)
    }

    /// Opens the ledger at `settings.ledgerURL` (creating it, and opening the account with
    /// `settings.startingCash`, when it is new), replays it, subscribes to `feed` and starts filling.
    /// A torn last line is dropped and reported as the first `.notice` on `events`. A damaged or
    /// inconsistent ledger throws, naming the line and what to do; the file is left as it is.
    /// `now` is the wall clock (fill times, the session's hours); `clock` paces `refresh()` and the wait
    /// for a first quote.
    public static func start(
        settings: PaperSettings, feed: any MarketFeed, now: @escaping @Sendable () -> Date = Date.init,
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws(PaperBrokerError) -> PaperBroker {
        let journal: Journal<PaperLedgerRecord>
        do {
            journal = try Journal(url: settings.ledgerURL)
        } catch {
            throw .ledger(error)
        }
        let broker = PaperBroker(settings: settings, journal: journal, feed: feed, now: now, clock: clock)
        try await broker.open()
        return broker
    }

    /// Ends the feed subscription and the periodic refresh, wakes any `place` waiting for a quote, and
    /// finishes `events`. Every line written is already on disk. Later calls are refused.
    public func stop() async {
        guard !stopped else { return }
        stopped = true
        for task in tasks { task.cancel() }
        tasks = []
        for waiters in quoteWaiters.values { for waiter in waiters.values { waiter.resume() } }
        quoteWaiters = [:]
        let subscription = subscription
        self.subscription = nil
        await subscription?.cancel()
        eventSink.finish()
    }

    // MARK: OrderService

    public func orders(status: OrderStatusFilter) async throws(BrokerError) -> [Order] {
        state.orders.reversed().filter { status.includes($0.status) }
    }

    /// Judges `request` on the latest state (the others' lines applied) and the source's latest quote,
    /// writes its `placed` line, then evaluates it on that quote at once: an order fillable now (a
    /// market order, the market open, a quote present) comes back filled, its fill written and
    /// published before this returns; any other comes back open and fills on a later quote. For a market
    /// order on a symbol without a quote yet, waits up to `settings.quoteWait` for the source's first.
    /// A refusal throws `.insufficientBuyingPower` or `.orderRejected` with the account's reason
    /// (`PaperRefusal`), and nothing is written.
    public func place(_ request: OrderRequest) async throws(BrokerError) -> Order {
        try checkRunning()
        beginPlacement(of: request.symbol)
        defer { endPlacement(of: request.symbol) }
        try await awaitQuoteForMarketOrder(request)
        let time = now()
        var refusal: PaperRefusal?
        let placed = try commit { state, nextLine in
            let id = OrderID("P-\(nextLine)")
            switch state.placement(of: request, id: id, at: time, quote: quotes[request.symbol], session: settings.session) {
            case .success(let placed): return [.placed(placed)]
            case .failure(let reason):
                refusal = reason
                return []
            }
        }
        if let refusal { throw refusal.brokerError }
        guard case .placed(let record)? = placed.first else {
            preconditionFailure("a placement that was not refused wrote its line")
        }
        evaluate([request.symbol])
        await sendFollowedSymbols()
        // As it is now, should a quote have filled it while the feed was being told of its symbol.
        return state.order(record.orderID) ?? Order(
            request: request, id: record.orderID, status: .accepted, createdAt: time, updatedAt: time)
    }

    /// Cancels open order `id` at once (paper orders have no exchange to wait for). Refused for an order
    /// that is unknown or no longer open (e.g. another instance filled it first).
    public func cancel(id: OrderID) async throws(BrokerError) {
        try checkRunning()
        let time = now()
        var refusal: BrokerError?
        try commit { state, _ in
            switch state.cancellation(of: id, at: time) {
            case .success(let cancelled): return [.cancelled(cancelled)]
            case .failure(let reason):
                refusal = reason
                return []
            }
        }
        if let refusal { throw refusal }
        await sendFollowedSymbols()
    }

    /// Cancels open order `id` as replaced and places `request` in its stead, in one append: both or
    /// neither. The new order is judged as if the old one's hold were released.
    public func replace(id: OrderID, _ request: OrderRequest) async throws(BrokerError) -> Order {
        try checkRunning()
        beginPlacement(of: request.symbol)
        defer { endPlacement(of: request.symbol) }
        try await awaitQuoteForMarketOrder(request)
        let time = now()
        var refusal: BrokerError?
        let written = try commit { state, nextLine in
            // The cancellation takes `nextLine`, the new order's `placed` line the one after.
            switch state.replacement(
                of: id, by: request, newID: OrderID("P-\(nextLine + 1)"), at: time, quote: quotes[request.symbol],
                session: settings.session) {
            case .success(let records): return records
            case .failure(let reason):
                refusal = reason
                return []
            }
        }
        if let refusal { throw refusal }
        guard let newID = written.last?.orderID else {
            preconditionFailure("a replacement that was not refused wrote its lines")
        }
        evaluate([request.symbol])
        await sendFollowedSymbols()
        return state.order(newID) ?? Order(request: request, id: newID, status: .accepted, createdAt: time, updatedAt: time)
    }

    // MARK: PositionService, FillService, AccountService

    /// Open positions, sorted by symbol, valued at the source's last trade where it has sent one.
    public func positions() async throws(BrokerError) -> [Position] {
        valuation.allPositions
    }

    /// Fills at or after `since`, oldest first.
    public func fills(since: Date) async throws(BrokerError) -> [Fill] {
        state.fills.filter { $0.time >= since }
    }

    /// The one paper account, exact.
    public func balances() async throws(BrokerError) -> [AccountBalance] {
        let summary = account()
        return [AccountBalance(accountID: branding.id, cash: summary.cash, buyingPower: summary.buyingPower, equity: summary.equity)]
    }

    /// Cash, equity, buying power and P&L, exact.
    public func account() -> PaperAccountSummary {
        valuation.summary(of: state.account)
    }

    /// Why the account would refuse `request` now (nil when it would take it): for an order ticket's
    /// preview, judged on the source's latest quote like `place`. Another instance's lines not yet read
    /// may still change the answer; `place` judges again under the ledger's lock.
    public func check(_ request: OrderRequest) -> PaperRefusal? {
        state.account.validate(request, quote: quotes[request.symbol] ?? QuoteSnapshot(bid: nil, ask: nil, last: 0, time: now()))
    }

    /// The commission the configured schedule charges for `quantity` shares.
    public func commission(for quantity: ExactDecimal) throws(ExactDecimal.ArithmeticError) -> ExactDecimal {
        try state.account.commission(for: quantity)
    }

    // MARK: Sharing

    /// Applies what other instances appended since the last look, and expires day orders whose session
    /// has closed. Runs every `settings.refreshInterval`; call it to look at once.
    public func refresh() async {
        guard haltReason == nil, !stopped else { return }
        let replay: JournalReplay<PaperLedgerRecord>
        do {
            replay = try journal.readNew()
        } catch {
            halt(.ledger(error))
            return
        }
        do {
            try absorb(replay)
        } catch {
            halt(error)
            return
        }
        let time = now()
        if !state.expiries(at: time).isEmpty {
            do {
                try commit { state, _ in state.expiries(at: time) }
            } catch {
                eventSink.yield(.notice("day orders could not be expired: \(error)"))
            }
        }
        publishAccount()
        await sendFollowedSymbols()
    }

    // MARK: Start

    private func open() async throws(PaperBrokerError) {
        let replay: JournalReplay<PaperLedgerRecord>
        do {
            replay = try journal.readNew()
        } catch {
            throw .ledger(error)
        }
        do {
            try state.apply(contentsOf: replay.records, firstLine: replay.firstSequence)
        } catch {
            throw .inconsistent(error, path: journal.path)
        }
        if !state.isOpened {
            // Under the lock: another instance starting on the same new file may have opened it first.
            let opened = PaperAccountOpened(startingCash: settings.startingCash, time: now())
            try append { state, _ in state.isOpened ? [] : [.accountOpened(opened)] }
        }
        valuation.revalueAll(account: state.account)
        if let torn = replay.tornTail { eventSink.yield(.notice(torn.message)) }
        publishAccount()

        let symbols = wantedSymbols
        let subscription = await feed.subscribe(symbols: symbols)
        self.subscription = subscription
        followed = symbols
        let updates = subscription.updates
        let interval = settings.refreshInterval
        let clock = clock
        tasks.append(Task { await self.follow(updates) })
        tasks.append(Task {
            while true {
                do { try await clock.sleep(for: interval) } catch { return }
                await self.refresh()
            }
        })
    }

    // MARK: Quotes

    private func follow(_ updates: MarketUpdates) async {
        var iterator = updates.makeAsyncIterator()
        while let update = await iterator.next(isolation: self) {
            await receive(update)
        }
    }

    /// Notes the source's quotes, revalues their symbols' positions and evaluates their open orders.
    private func receive(_ update: MarketUpdate) async {
        guard haltReason == nil, !stopped else { return }
        let source = settings.sourceBrokerID
        var symbols: [String] = []
        for (key, quote) in update.quotes where key.brandID == source {
            quotes[key.symbol] = QuoteSnapshot(quote)
            symbols.append(key.symbol)
            if let waiters = quoteWaiters.removeValue(forKey: key.symbol) {
                for waiter in waiters.values { waiter.resume() }
            }
        }
        guard !symbols.isEmpty else { return }
        symbols.sort()
        for symbol in symbols {
            guard let quote = quotes[symbol] else { continue }
            let before = valuation.position(symbol)
            let after = valuation.price(symbol, last: quote.last, account: state.account)
            if before != after { eventSink.yield(.positionChanged(symbol: symbol, after)) }
        }
        let linesBefore = state.lastLine
        evaluate(symbols)
        publishAccount()
        if state.lastLine != linesBefore { await sendFollowedSymbols() }
    }

    /// Fills, triggers and expires what the latest quotes of `symbols` call for. A first look without
    /// the lock finds most quotes change nothing; only then is the lock taken and the question asked
    /// again on the latest state.
    private func evaluate(_ symbols: [String]) {
        let time = now()
        let marketOpen = settings.session.isOpen(at: time)
        for symbol in symbols {
            guard let quote = quotes[symbol], !state.openOrders(of: symbol).isEmpty else { continue }
            guard !state.executions(of: symbol, on: quote, marketOpen: marketOpen, at: time, firstLine: state.lastLine + 1).isEmpty else {
                continue
            }
            do {
                try commit { state, nextLine in
                    state.executions(of: symbol, on: quote, marketOpen: marketOpen, at: time, firstLine: nextLine)
                }
            } catch {
                if haltReason == nil { eventSink.yield(.notice("orders for \(symbol) could not be filled: \(error)")) }
            }
        }
    }

    /// A market order is judged on a price: on a symbol the source has not quoted yet, it waits for the
    /// first quote (`waitForFirstQuote`), and is refused if the broker stopped meanwhile.
    private func awaitQuoteForMarketOrder(_ request: OrderRequest) async throws(BrokerError) {
        guard quotes[request.symbol] == nil, request.type == .market else { return }
        await waitForFirstQuote(of: request.symbol)
        try checkRunning()
    }

    /// Waits until the source sends `symbol`, at most `settings.quoteWait`. The placement under way
    /// keeps the symbol followed, and the feed replays its latest quote of a newly followed symbol at
    /// once, so this is short unless the source has never quoted it.
    private func waitForFirstQuote(of symbol: String) async {
        await sendFollowedSymbols()
        guard quotes[symbol] == nil, !stopped else { return }
        let id = nextWaiterID
        nextWaiterID += 1
        let wait = settings.quoteWait
        let clock = clock
        let timeout = Task {
            do { try await clock.sleep(for: wait) } catch { return }
            self.quoteWaiters[symbol]?.removeValue(forKey: id)?.resume()
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            quoteWaiters[symbol, default: [:]][id] = continuation
        }
        timeout.cancel()
        if quoteWaiters[symbol]?.isEmpty == true { quoteWaiters[symbol] = nil }
    }

    /// Open orders' and positions' symbols, and those a `place` is under way for.
    private var wantedSymbols: Set<String> {
        state.symbolsWithOpenOrders.union(valuation.heldSymbols).union(placementsUnderWay.keys)
    }

    private func beginPlacement(of symbol: String) {
        placementsUnderWay[symbol, default: 0] += 1
    }

    private func endPlacement(of symbol: String) {
        let left = (placementsUnderWay[symbol] ?? 1) - 1
        placementsUnderWay[symbol] = left > 0 ? left : nil
    }

    /// Tells the feed which symbols to follow when that changed. One call at a time, in order: a later
    /// change waits for the call in flight and is sent after it. The quotes of symbols no longer followed
    /// are forgotten: they would only grow stale, and an order must not fill on a price from hours ago
    /// (the feed replays its latest at once when the symbol is followed again).
    private func sendFollowedSymbols() async {
        guard !sendingSymbols else { return }
        sendingSymbols = true
        defer { sendingSymbols = false }
        while let subscription, !stopped {
            let wanted = wantedSymbols
            guard wanted != followed else { return }
            for symbol in followed.subtracting(wanted) { quotes[symbol] = nil }
            followed = wanted
            await subscription.setSymbols(wanted)
        }
    }

    // MARK: Ledger

    /// Appends what `decide` asks for, judged under the journal's lock on the latest state: the lines
    /// other instances appended are applied first, then `decide` sees the state and the line its first
    /// record will take. Once the lines are on disk they are applied and published. Returns them.
    @discardableResult
    private func commit(
        _ decide: (PaperLedgerState, _ nextLine: Int) -> [PaperLedgerRecord]
    ) throws(BrokerError) -> [PaperLedgerRecord] {
        do {
            let decided = try append(decide)
            publishAccount()
            return decided
        } catch {
            halt(error)
            if case .ledger(let journalError) = error { throw .orderRejected(reason: "not saved: \(journalError)") }
            throw .orderRejected(reason: error.description)
        }
    }

    /// `commit` without the verdict on failures: the lines others appended, then `decide`'s, applied.
    @discardableResult
    private func append(
        _ decide: (PaperLedgerState, _ nextLine: Int) -> [PaperLedgerRecord]
    ) throws(PaperBrokerError) -> [PaperLedgerRecord] {
        var decided: [PaperLedgerRecord] = []
        var othersFailure: PaperBrokerError?
        let receipt: JournalReceipt<PaperLedgerRecord>
        do {
            receipt = try journal.append { others in
                do throws(PaperBrokerError) {
                    try absorb(others)
                } catch {
                    othersFailure = error
                    return []
                }
                decided = decide(state, others.sequences.upperBound)
                return decided
            }
        } catch {
            throw .ledger(error)
        }
        if let othersFailure { throw othersFailure }
        try apply(decided, firstLine: receipt.sequences.lowerBound)
        return decided
    }

    /// Applies lines other instances appended, and reports a torn last line one of them left.
    private func absorb(_ replay: JournalReplay<PaperLedgerRecord>) throws(PaperBrokerError) {
        if let torn = replay.tornTail { eventSink.yield(.notice(torn.message)) }
        try apply(replay.records, firstLine: replay.firstSequence)
    }

    private func apply(_ records: [PaperLedgerRecord], firstLine: Int) throws(PaperBrokerError) {
        for (offset, record) in records.enumerated() {
            let event: PaperEvent?
            do {
                event = try state.apply(record, line: firstLine + offset)
            } catch {
                throw .inconsistent(error, path: journal.path)
            }
            guard let event else { continue }
            eventSink.yield(event)
            if case .filled(let order, _, _) = event {
                let symbol = order.symbol
                let position = valuation.revalue(symbol, account: state.account)
                eventSink.yield(.positionChanged(symbol: symbol, position))
            }
        }
    }

    /// Publishes the account's figures when they changed.
    private func publishAccount() {
        let summary = account()
        guard summary != lastSummary else { return }
        lastSummary = summary
        eventSink.yield(.accountChanged(summary))
    }

    /// Stops trading on a ledger that cannot be trusted or written: what was applied stays readable,
    /// nothing more is decided. A failure that leaves the journal usable (a lock held too long) does not
    /// halt: the caller is told and may try again.
    private func halt(_ error: PaperBrokerError) {
        if case .ledger(let journalError) = error {
            switch journalError {
            case .lockTimeout, .unencodable: return
            case .io(let operation, _, _, _) where operation == .lock || operation == .write: return
            default: break
            }
        }
        guard haltReason == nil else { return }
        haltReason = error.description
        eventSink.yield(.halted(error.description))
    }

    private func checkRunning() throws(BrokerError) {
        if let haltReason { throw .orderRejected(reason: haltReason) }
        if stopped { throw .orderRejected(reason: "the paper broker has stopped") }
    }
}
