import Domain
import Foundation

/// Every decision of the hub, as a value: who follows what, which upstream sessions must exist and
/// what they are subscribed to, the cache of latest quotes and failures, and when to reconnect.
/// Each mutating method returns the actions the `MarketDataHub` actor must carry out, in order.
/// Nothing here awaits, sleeps or touches a session, so tests drive it step by step.
struct HubStateMachine: Sendable {
    typealias SubscriberID = Int

    /// One attempt at an upstream session. Events carry it so that those of a session the machine
    /// has already given up on (closed, dropped, replaced) are recognised and ignored.
    struct UpstreamID: Hashable, Sendable, CustomStringConvertible {
        var broker: String
        var generation: Int

        var description: String { "\(broker)#\(generation)" }
    }

    enum Action: Hashable, Sendable {
        case openUpstream(UpstreamID)
        case subscribeUpstream(UpstreamID, Set<String>)
        case unsubscribeUpstream(UpstreamID, Set<String>)
        case closeUpstream(UpstreamID)
        /// Sleep `delay`, then report `reconnectDue(id)`.
        case scheduleReconnect(UpstreamID, attempt: Int, delay: Duration)
        case cancelReconnect(broker: String)
        /// Start delivering these keys to the subscriber; `replay` is what it gets at once.
        case follow(SubscriberID, keys: Set<QuoteKey>, replay: MarketUpdate)
        case unfollow(SubscriberID, keys: Set<QuoteKey>)
        /// The subscriber is gone: finish its stream.
        case finishSubscriber(SubscriberID)
        case publishQuote(QuoteKey, CommonQuote)
        case publishFailure(QuoteKey, BrokerError)
        case publishBrokerState(broker: String, BrokerConnectionState)
        /// The broker's running count of frames its sessions skipped as undecodable.
        case publishSkippedFrames(broker: String, count: Int)
    }

    /// Where a broker's upstream is, each case with what it needs; what the footer shows (`state`) is
    /// derived from it, so the two cannot disagree.
    private enum Link: Hashable, Sendable {
        /// No session and none wanted; the footer keeps saying what it last said.
        case idle(shown: BrokerConnectionState)
        /// `openSession()` is under way for the current generation; `after` is the reason of the drop it
        /// reconnects after, nil for a first connection.
        case opening(after: String?)
        case open(subscribed: Set<String>, status: OpenStatus)
        /// Waiting for the backoff delay before the next attempt.
        case waitingToReconnect(reason: String)
        /// A permanent error; no retries until demand drops to zero and comes back.
        case failed(reason: String)
    }

    private enum OpenStatus: Hashable, Sendable {
        /// Open, but the broker has not said it works yet (`after`: as for `.opening`).
        case awaitingLive(after: String?)
        case working
        /// A polled broker waits out a 429 or a failed request; the session goes on.
        case retrying(at: Date, after: BrokerError)
    }

    private struct Upstream: Sendable {
        let broker: String
        /// The broker's half of its quotes' keys, hashed once.
        let brand: QuoteKey.Brand
        var link: Link = .idle(shown: .connecting)
        var generation = 0
        /// Consecutive failures since a session last lived at least `backoff.healthyLifetime`. Neither `.live`
        /// nor a quote resets it: some brokers report live as soon as the socket opens (Finnhub and Tradier
        /// acknowledge nothing) and a server may send a few quotes before dropping, so a server that accepts
        /// and soon drops every connection would otherwise reset the backoff each time and be hit twice a
        /// second (94 Tradier sessions in 89 s, each with its own session POST).
        var attempt = 0
        /// When the current session opened (the hub's clock), to tell a session that died young.
        var openedAt: Duration?
        /// Failures since a session last opened: how many times a connection limit has been blamed on our
        /// own dropped connection (see `fail`), whatever the session's age did to `attempt`.
        var failuresSinceOpen = 0
        /// Whether this broker delivered since demand last started: a connection limit right after our own
        /// connection dropped is most likely that connection, still counted by the broker.
        var hasDelivered = false
        /// What working looks like for this broker: `.live` for a stream, `.polling` for a poll loop, so
        /// nobody mistakes a 5-second poll for a pushed feed.
        let liveState: BrokerConnectionState

        var id: UpstreamID { UpstreamID(broker: broker, generation: generation) }

        var isOpen: Bool {
            if case .open = link { true } else { false }
        }

        var isOpening: Bool {
            if case .opening = link { true } else { false }
        }

        /// What the footer shows.
        var state: BrokerConnectionState {
            switch link {
            case .idle(let shown): shown
            case .opening(let after), .open(_, .awaitingLive(let after)):
                after.map { .reconnecting(attempt: attempt, reason: $0) } ?? .connecting
            case .open(_, .working): liveState
            case .open(_, .retrying(let at, let error)): .retrying(at: at, after: error)
            case .waitingToReconnect(let reason): .reconnecting(attempt: attempt, reason: reason)
            case .failed(let reason): .failed(reason: reason)
            }
        }

        /// Sets the open session's status; the state to publish when that changes what the footer shows.
        mutating func setOpenStatus(_ status: OpenStatus) -> BrokerConnectionState? {
            guard case .open(let subscribed, let old) = link, old != status else { return nil }
            let before = state
            link = .open(subscribed: subscribed, status: status)
            return state == before ? nil : state
        }
    }

    let brokers: [String]
    let backoff: BackoffPolicy
    private var random: SplitMix64
    private var upstreams: [String: Upstream]
    /// Each subscriber's symbols, compactly (`SubscriberSymbols`).
    private var subscribers: [SubscriberID: SubscriberSymbols] = [:]
    /// How many subscribers follow each symbol; every subscriber follows its symbols on every broker,
    /// so the count per (broker, symbol) is the count per symbol.
    private var demand: [String: Int] = [:]
    private var quotes: [QuoteKey: CommonQuote] = [:]
    private var failures: [QuoteKey: BrokerError] = [:]
    /// Frames each broker's sessions skipped as undecodable, since the hub started.
    private var skippedFrames: [String: Int] = [:]
    private(set) var isShutDown = false

    /// `polled` brokers are loops of requests: once they work, their state is `.polling`, not `.live`.
    init(brokers: [String], polled: Set<String> = [], backoff: BackoffPolicy = BackoffPolicy(), randomSeed: UInt64 = 0) {
        self.brokers = brokers
        self.backoff = backoff
        self.random = SplitMix64(seed: randomSeed)
        self.upstreams = Dictionary(
            brokers.map { ($0, Upstream(broker: $0, brand: QuoteKey.Brand($0), liveState: polled.contains($0) ? .polling : .live)) },
            uniquingKeysWith: { first, _ in first })
    }

    // MARK: Inspection

    func state(of broker: String) -> BrokerConnectionState? { upstreams[broker]?.state }
    func skippedFrameCount(of broker: String) -> Int { skippedFrames[broker, default: 0] }
    func attempt(of broker: String) -> Int? { upstreams[broker]?.attempt }
    func demand(for symbol: String) -> Int { demand[symbol, default: 0] }
    var demandedSymbols: Set<String> { Set(demand.keys) }
    func cachedQuote(_ key: QuoteKey) -> CommonQuote? { quotes[key] }
    func cachedFailure(_ key: QuoteKey) -> BrokerError? { failures[key] }
    func symbols(of subscriber: SubscriberID) -> Set<String>? { subscribers[subscriber]?.set }

    // MARK: Subscribers

    mutating func addSubscriber(_ id: SubscriberID, symbols: Set<String>) -> [Action] {
        guard !isShutDown, subscribers[id] == nil else { return [.finishSubscriber(id)] }
        subscribers[id] = SubscriberSymbols(symbols)
        var actions = changeDemand(adding: symbols, removing: [])
        var replay = self.replay(for: symbols)
        for broker in brokers { replay.brokerStates[broker] = upstreams[broker]?.state }
        actions.insert(.follow(id, keys: keys(for: symbols), replay: replay), at: 0)
        return actions
    }

    mutating func setSymbols(_ symbols: Set<String>, for id: SubscriberID) -> [Action] {
        guard !isShutDown, let old = subscribers[id]?.set else { return [] }
        let added = symbols.subtracting(old)
        let removed = old.subtracting(symbols)
        guard !added.isEmpty || !removed.isEmpty else { return [] }
        var actions: [Action] = []
        if !removed.isEmpty { actions.append(.unfollow(id, keys: keys(for: removed))) }
        if !added.isEmpty { actions.append(.follow(id, keys: keys(for: added), replay: replay(for: added))) }
        subscribers[id] = SubscriberSymbols(symbols)
        actions += changeDemand(adding: added, removing: removed)
        return actions
    }

    mutating func removeSubscriber(_ id: SubscriberID) -> [Action] {
        guard let old = subscribers.removeValue(forKey: id)?.set else { return [] }
        return [.finishSubscriber(id)] + changeDemand(adding: [], removing: old)
    }

    // MARK: Upstream events

    /// `now` is the hub's clock, for how long the session lives (see `upstreamEnded`).
    mutating func upstreamOpened(_ id: UpstreamID, at now: Duration) -> [Action] {
        guard !isShutDown, var upstream = upstreams[id.broker], upstream.generation == id.generation,
              case .opening(let after) = upstream.link
        else { return [.closeUpstream(id)] }
        let wanted = demandedSymbols
        if wanted.isEmpty {
            upstream.link = .idle(shown: upstream.state)
            upstreams[id.broker] = upstream
            return [.closeUpstream(id)]
        }
        upstream.link = .open(subscribed: wanted, status: .awaitingLive(after: after))
        upstream.openedAt = now
        upstream.failuresSinceOpen = 0
        upstreams[id.broker] = upstream
        return [.subscribeUpstream(id, wanted)]
    }

    mutating func upstreamOpenFailed(_ id: UpstreamID, error: BrokerError) -> [Action] {
        guard isCurrent(id), upstreams[id.broker]?.isOpening == true else { return [] }
        return fail(id.broker, error: error)
    }

    /// The one entry point for what a session reports. The actions are appended to `actions`, which
    /// the hub reuses: this runs for every quote the hub takes in, and a new array per quote cost an
    /// allocation each.
    mutating func upstreamReceived(_ event: QuoteEvent, from id: UpstreamID, into actions: inout [Action]) {
        if case .quote(let quote) = event {
            received(quote, from: id, into: &actions)
            return
        }
        guard isCurrent(id), upstreams[id.broker]?.isOpen == true else { return }
        switch event {
        case .live:
            actions += markLive(id.broker)
        case .quote:
            break  // handled above
        case .symbolFailed(let symbol, let error):
            guard demand[symbol] != nil else { return }
            let key = QuoteKey(brandID: id.broker, symbol: symbol)
            failures[key] = error
            actions.append(.publishFailure(key, error))
        case .skippedFrame:
            let count = skippedFrames[id.broker, default: 0] + 1
            skippedFrames[id.broker] = count
            actions.append(.publishSkippedFrames(broker: id.broker, count: count))
        case .retrying(let at, let error):
            // The session goes on and keeps its quotes; the footer says why it waits and until when. Its next
            // answer (`.live` or a quote) makes the broker live again.
            if let changed = update(id.broker, { $0.setOpenStatus(.retrying(at: at, after: error)) }) ?? nil {
                actions.append(.publishBrokerState(broker: id.broker, changed))
            }
        }
    }

    /// What a session reported since the hub last read it, in order: the same as `upstreamReceived` for
    /// each event, but the upstream is looked up once for a run of quotes rather than once per quote (a
    /// read hands over a frame interval's quotes together, and hashing the broker's name for each was a
    /// sixth of this machine's cost per quote, under callgrind).
    mutating func upstreamReceived(_ events: [QuoteEvent], from id: UpstreamID, into actions: inout [Action]) {
        var slot: Dictionary<String, Upstream>.Index?
        // By index, not `for event in events`: the loop variable was a copy of every event (a quote is
        // about a hundred bytes), where the subscript lets the quote be read where it lies.
        for index in events.indices {
            guard case .quote(let quote) = events[index] else {
                upstreamReceived(events[index], from: id, into: &actions)
                // Anything but a quote may replace the upstream; look it up again for the next quote.
                slot = nil
                continue
            }
            if slot == nil { slot = upstreams.index(forKey: id.broker) }
            guard let slot else { continue }
            received(quote, from: id, at: slot, into: &actions)
        }
    }

    private mutating func received(_ quote: CommonQuote, from id: UpstreamID, into actions: inout [Action]) {
        guard let slot = upstreams.index(forKey: id.broker) else { return }
        received(quote, from: id, at: slot, into: &actions)
    }

    /// `slot` is `id.broker`'s index in `upstreams`. The upstream is read and marked in place through
    /// it: this runs for every quote, and a copy of the whole `Upstream` was an eighth of its cost.
    private mutating func received(
        _ quote: CommonQuote, from id: UpstreamID, at slot: Dictionary<String, Upstream>.Index, into actions: inout [Action]
    ) {
        guard !isShutDown else { return }
        let key = QuoteKey(brand: Self.brand(of: &upstreams.values[slot]), symbol: quote.symbol)
        // A cached quote means its symbol is demanded (`changeDemand` empties the cache of a symbol whose
        // demand ends), so a row that already has a price costs one lookup of the key, whose hash it
        // carries, and a write in place, instead of hashing the symbol again for `demand` and the key
        // for the write: a fifth of this function per quote.
        let cached = quotes.index(forKey: key)
        guard cached != nil || demand[quote.symbol] != nil else { return }
        guard let working = Self.delivered(to: &upstreams.values[slot], generation: id.generation) else { return }
        if let cached { quotes.values[cached] = quote } else { quotes[key] = quote }
        if !failures.isEmpty { failures[key] = nil }
        if !working, let changed = upstreams.values[slot].setOpenStatus(.working) {
            actions.append(.publishBrokerState(broker: id.broker, changed))
        }
        actions.append(.publishQuote(key, quote))
    }

    /// The upstream's brand, read in place: `upstreams.values[slot].brand` copied the whole `Upstream`
    /// first, which cost more than hashing the broker's id again.
    private static func brand(of upstream: inout Upstream) -> QuoteKey.Brand {
        upstream.brand
    }

    /// Whether `upstream`'s session of `generation` is open and already working (nil: not open, or an
    /// older session), noting that it has delivered.
    private static func delivered(to upstream: inout Upstream, generation: Int) -> Bool? {
        guard upstream.generation == generation, case .open(_, let status) = upstream.link else { return nil }
        if !upstream.hasDelivered { upstream.hasDelivered = true }
        return status == .working
    }

    /// One broker's answer to a snapshot request, symbol by symbol. Only followed symbols count; a quote
    /// older than the cached one is dropped (the stream was faster), and a failure is cached and published
    /// only for a row with no price, which keeps it.
    mutating func snapshotReceived(
        _ results: [String: Result<CommonQuote, BrokerError>], from broker: String, into actions: inout [Action]
    ) {
        guard !isShutDown, upstreams[broker] != nil else { return }
        for (symbol, result) in results where demand[symbol] != nil {
            let key = QuoteKey(brandID: broker, symbol: symbol)
            switch result {
            case .success(var quote):
                if let cached = quotes[key], cached.timestamp > quote.timestamp { continue }
                // Rows are keyed by the symbol asked for, whatever spelling the broker answered with.
                quote.symbol = symbol
                quotes[key] = quote
                failures[key] = nil
                actions.append(.publishQuote(key, quote))
            case .failure(let error):
                guard quotes[key] == nil, failures[key] != error else { continue }
                failures[key] = error
                actions.append(.publishFailure(key, error))
            }
        }
    }

    /// The session's event stream finished (`error == nil`) or threw, at `now` on the hub's clock. A
    /// session that lived `backoff.healthyLifetime` or longer starts the backoff afresh; one that died
    /// younger counts as one more failed attempt, so the delays keep growing.
    mutating func upstreamEnded(_ id: UpstreamID, error: BrokerError?, at now: Duration) -> [Action] {
        guard isCurrent(id), upstreams[id.broker]?.isOpen == true else { return [] }
        let healthyLifetime = backoff.healthyLifetime
        update(id.broker) { upstream in
            if let openedAt = upstream.openedAt, now - openedAt >= healthyLifetime {
                upstream.attempt = 0
            }
            upstream.openedAt = nil
        }
        return [.closeUpstream(id)] + fail(id.broker, error: error)
    }

    mutating func reconnectDue(_ id: UpstreamID) -> [Action] {
        guard isCurrent(id), var upstream = upstreams[id.broker], case .waitingToReconnect(let reason) = upstream.link
        else { return [] }
        upstream.generation += 1
        upstream.link = .opening(after: reason)
        upstreams[id.broker] = upstream
        return [.openUpstream(upstream.id)]
    }

    /// Closes everything and finishes every subscriber; later calls change nothing.
    mutating func shutdown() -> [Action] {
        guard !isShutDown else { return [] }
        isShutDown = true
        var actions = subscribers.keys.sorted().map(Action.finishSubscriber)
        subscribers = [:]
        demand = [:]
        quotes = [:]
        failures = [:]
        for broker in brokers {
            guard var upstream = upstreams[broker] else { continue }
            switch upstream.link {
            case .open: actions.append(.closeUpstream(upstream.id))
            case .waitingToReconnect: actions.append(.cancelReconnect(broker: broker))
            case .idle, .opening, .failed: break
            }
            // A session still opening arrives with a stale generation and is closed on arrival.
            upstream.generation += 1
            upstream.link = .idle(shown: upstream.state)
            upstreams[broker] = upstream
        }
        return actions
    }

    // MARK: Private

    private func isCurrent(_ id: UpstreamID) -> Bool {
        !isShutDown && upstreams[id.broker]?.generation == id.generation
    }

    private func keys(for symbols: Set<String>) -> Set<QuoteKey> {
        var keys = Set<QuoteKey>(minimumCapacity: symbols.count * brokers.count)
        for symbol in symbols {
            for broker in brokers { keys.insert(QuoteKey(brandID: broker, symbol: symbol)) }
        }
        return keys
    }

    /// What the cache holds for `symbols`: what a subscriber that starts following them gets at once
    /// (and a group member that joins symbols its group already follows).
    func replay(for symbols: Set<String>) -> MarketUpdate {
        var update = MarketUpdate()
        for key in keys(for: symbols) {
            if let quote = quotes[key] { update.quotes[key] = quote }
            if let failure = failures[key] { update.failures[key] = failure }
        }
        return update
    }

    /// Adjusts the reference counts and turns symbols whose count crossed zero into upstream work.
    private mutating func changeDemand(adding added: Set<String>, removing removed: Set<String>) -> [Action] {
        var firstDemanded = Set<String>()
        var noLongerDemanded = Set<String>()
        for symbol in added {
            demand[symbol, default: 0] += 1
            if demand[symbol] == 1 { firstDemanded.insert(symbol) }
        }
        for symbol in removed {
            guard let count = demand[symbol] else { continue }
            if count > 1 {
                demand[symbol] = count - 1
            } else {
                demand[symbol] = nil
                noLongerDemanded.insert(symbol)
            }
        }
        guard !firstDemanded.isEmpty || !noLongerDemanded.isEmpty else { return [] }
        // Nobody can see these rows any more; a later subscriber gets fresh values, not old ones.
        for key in keys(for: noLongerDemanded) {
            quotes[key] = nil
            failures[key] = nil
        }
        return brokers.flatMap { reconcile($0) }
    }

    /// Brings one broker's upstream in line with the current demand.
    private mutating func reconcile(_ broker: String) -> [Action] {
        guard var upstream = upstreams[broker] else { return [] }
        defer { upstreams[broker] = upstream }
        let wanted = demandedSymbols
        switch upstream.link {
        case .idle(let shown):
            guard !wanted.isEmpty else { return [] }
            upstream.generation += 1
            upstream.link = .opening(after: nil)
            upstream.attempt = 0
            upstream.failuresSinceOpen = 0
            upstream.hasDelivered = false
            var actions: [Action] = []
            if shown != .connecting {
                actions.append(.publishBrokerState(broker: broker, .connecting))
            }
            actions.append(.openUpstream(upstream.id))
            return actions
        case .opening:
            // `upstreamOpened` subscribes whatever is demanded by then, or closes if nothing is.
            return []
        case .open(let subscribed, let status):
            let id = upstream.id
            if wanted.isEmpty {
                upstream.link = .idle(shown: upstream.state)
                return [.unsubscribeUpstream(id, subscribed), .closeUpstream(id)]
            }
            var actions: [Action] = []
            let gone = subscribed.subtracting(wanted)
            let new = wanted.subtracting(subscribed)
            if !gone.isEmpty { actions.append(.unsubscribeUpstream(id, gone)) }
            if !new.isEmpty { actions.append(.subscribeUpstream(id, new)) }
            upstream.link = .open(subscribed: wanted, status: status)
            return actions
        case .waitingToReconnect:
            // The reconnect resubscribes whatever is demanded then; with nothing wanted, stop trying.
            guard wanted.isEmpty else { return [] }
            upstream.link = .idle(shown: upstream.state)
            upstream.generation += 1
            return [.cancelReconnect(broker: broker)]
        case .failed:
            // Demand dropping to zero is the user acting: the next demand tries afresh.
            if wanted.isEmpty { upstream.link = .idle(shown: upstream.state) }
            return []
        }
    }

    private mutating func markLive(_ broker: String) -> [Action] {
        let changed = update(broker) { $0.setOpenStatus(.working) } ?? nil
        return changed.map { [.publishBrokerState(broker: broker, $0)] } ?? []
    }

    /// Runs `change` on `broker`'s upstream in place; nil for a broker the machine does not know.
    private mutating func update<R>(_ broker: String, _ change: (inout Upstream) -> R) -> R? {
        guard let index = upstreams.index(forKey: broker) else { return nil }
        return change(&upstreams.values[index])
    }

    static let connectionLimitRetries = 3

    /// The current attempt failed: give up on permanent errors, otherwise back off and retry.
    private mutating func fail(_ broker: String, error: BrokerError?) -> [Action] {
        guard var upstream = upstreams[broker] else { return [] }
        defer { upstreams[broker] = upstream }
        // Alpaca and Polygon refuse a new connection while they still count the one that just dropped
        // (Alpaca for up to ~90 s): after a working connection, a limit is retried, slowly, a few times.
        let ghostConnection = upstream.hasDelivered && upstream.failuresSinceOpen < Self.connectionLimitRetries
        upstream.failuresSinceOpen += 1
        if let error, case .limitExceeded = error, ghostConnection {
            upstream.attempt += 1
            upstream.link = .waitingToReconnect(reason: error.description)
            return [
                .publishBrokerState(broker: broker, upstream.state),
                .scheduleReconnect(upstream.id, attempt: upstream.attempt, delay: backoff.maximum),
            ]
        }
        if let error, error.isPermanent {
            upstream.link = .failed(reason: error.description)
            return [.publishBrokerState(broker: broker, upstream.state)]
        }
        upstream.attempt += 1
        upstream.link = .waitingToReconnect(reason: error?.description ?? "connection closed")
        let delay = backoff.delay(attempt: upstream.attempt, unitRandom: random.nextUnit())
        return [
            .publishBrokerState(broker: broker, upstream.state),
            .scheduleReconnect(upstream.id, attempt: upstream.attempt, delay: delay),
        ]
    }
}
