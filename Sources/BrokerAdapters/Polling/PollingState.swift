import Domain

/// One polling session as a value: which symbols it follows, which are due for a request, what it last
/// reported per symbol, and how it backs off. `PollingQuoteStreamSession` only carries out the steps this
/// returns (wait, request, emit, finish), so the behaviour is tested here without tasks or clocks.
/// Times are offsets on the session's clock.
///
/// Choices where the brief left room:
/// - `.live` is emitted with the first answer that was not a whole-request error, so "live" means the
///   credentials and the endpoint work; per-symbol failures in that answer still count.
/// - A quote equal to the last one emitted for its symbol is not emitted again (a REST snapshot is often
///   unchanged between polls, and every event costs the hub and the UI work). The whole quote is compared,
///   not only its timestamp, because some brokers move bid/ask without a new trade time.
/// - A per-symbol failure is emitted when it is new or different from the last one for that symbol.
///   Permanent ones (`isPermanent`, e.g. unknown symbol) also stop polling that symbol until it is
///   subscribed again, so a typo does not spend a one-symbol-per-request budget every cycle.
/// - Cycles run at a fixed delay: the next one is due `interval` after the previous one finished, so a
///   slow, rate-limited cycle never queues another behind it.
struct PollingState: Sendable {
    typealias Answer = Result<[String: Result<CommonQuote, BrokerError>], BrokerError>

    enum Step: Sendable, Hashable {
        /// Take a permit from the rate limiter, then ask for these symbols in one `quotes(for:)` call and
        /// report the answer with `pollAnswered`.
        case poll([String])
        /// Nothing is due before this offset; a subscription may end the wait early.
        case sleep(until: Duration)
        /// Nothing to poll; wait for a subscription without a deadline.
        case idle
        case finished
    }

    enum Outcome: Sendable, Hashable {
        case emit([QuoteEvent])
        /// The stream ends by throwing this error; nothing more is polled.
        case finish(BrokerError)
    }

    let settings: PollingSettings

    private(set) var subscribed: Set<String> = []
    /// Subscribed symbols waiting for a request: new subscriptions, and the rest of the current cycle.
    private(set) var due: Set<String> = []
    /// Subscribed symbols with a permanent failure; not polled until subscribed again.
    private(set) var parked: Set<String> = []
    /// When the next full cycle starts; nil before the first one (it starts at once).
    private(set) var nextCycle: Duration?
    /// No request before this offset (after a 429 or a failed request).
    private(set) var holdUntil: Duration?
    private(set) var isLive = false
    private(set) var isFinished = false
    private(set) var consecutiveFailures = 0
    private(set) var consecutiveRateLimits = 0
    private var cycleInProgress = false
    private var lastQuotes: [String: CommonQuote] = [:]
    private var reportedFailures: [String: BrokerError] = [:]

    init(settings: PollingSettings) {
        self.settings = settings.clamped
    }

    // MARK: Demand

    /// Follows `symbols`. Returns true when something new became due, i.e. the loop should wake now
    /// instead of at the end of its wait. Subscribing a parked symbol again retries it.
    mutating func subscribe(_ symbols: Set<String>) -> Bool {
        guard !isFinished else { return false }
        var woke = false
        for symbol in symbols {
            if subscribed.insert(symbol).inserted || parked.remove(symbol) != nil {
                reportedFailures[symbol] = nil
                due.insert(symbol)
                woke = true
            }
        }
        return woke
    }

    /// Stops polling `symbols` and forgets what was reported for them, so a later subscription reports
    /// afresh (the hub has dropped its cache for them too).
    mutating func unsubscribe(_ symbols: Set<String>) {
        subscribed.subtract(symbols)
        due.subtract(symbols)
        parked.subtract(symbols)
        for symbol in symbols {
            lastQuotes[symbol] = nil
            reportedFailures[symbol] = nil
        }
        if subscribed.isEmpty {
            nextCycle = nil
            cycleInProgress = false
        }
    }

    mutating func close() {
        isFinished = true
        subscribed = []
        due = []
        parked = []
        lastQuotes = [:]
        reportedFailures = [:]
    }

    // MARK: Polling

    /// What to do at `now`. Starts a cycle (every active symbol becomes due) when the previous one is
    /// `interval` old; otherwise polls what is due, in batches of `maxSymbolsPerRequest`, sorted.
    mutating func nextStep(now: Duration) -> Step {
        guard !isFinished else { return .finished }
        guard !subscribed.subtracting(parked).isEmpty else { return .idle }
        if let holdUntil {
            if now < holdUntil { return .sleep(until: holdUntil) }
            self.holdUntil = nil
        }
        if due.isEmpty {
            if let nextCycle, now < nextCycle { return .sleep(until: nextCycle) }
            due = subscribed.subtracting(parked)
            cycleInProgress = true
        }
        return .poll(Array(due.sorted().prefix(settings.maxSymbolsPerRequest)))
    }

    /// Which of `symbols` still need the request they were picked for; an unsubscribe may have come
    /// while the loop waited for a permit.
    func stillDue(_ symbols: [String]) -> [String] {
        symbols.filter { due.contains($0) }
    }

    /// The answer to polling `symbols` at `now`.
    mutating func pollAnswered(_ symbols: [String], with answer: Answer, at now: Duration) -> Outcome {
        guard !isFinished else { return .emit([]) }
        switch answer {
        case .success(let results):
            consecutiveFailures = 0
            consecutiveRateLimits = 0
            var events: [QuoteEvent] = []
            if !isLive {
                isLive = true
                events.append(.live)
            }
            for symbol in symbols where due.remove(symbol) != nil {
                // A broker that leaves a symbol out of its answer does not know it (as `quote(for:)` reads it).
                switch results[symbol] ?? .failure(.unknownSymbol(symbol)) {
                case .success(let quote): events += report(quote, for: symbol)
                case .failure(let error): events += report(error, for: symbol)
                }
            }
            endCycleIfDone(at: now)
            return .emit(events)

        case .failure(.unknownSymbol(let named)):
            // Thrown for the whole request (e.g. a symbol the request factory cannot spell), but it is
            // about symbols, not the connection: fail those symbols and poll the rest on.
            let culprits = symbols.contains(named) ? [named] : symbols
            var events: [QuoteEvent] = []
            for symbol in culprits where due.remove(symbol) != nil {
                events += report(.unknownSymbol(symbol), for: symbol)
            }
            endCycleIfDone(at: now)
            return .emit(events)

        case .failure(.rateLimited(let retryAfter)):
            // The provider is up and asked us to wait: not a failure of the connection.
            consecutiveRateLimits += 1
            holdUntil = now + (Self.duration(retryAfter) ?? settings.backoff(attempt: consecutiveRateLimits))
            return .emit([])

        case .failure(let error) where error.isPermanent:
            isFinished = true
            return .finish(error)

        case .failure(let error):
            consecutiveFailures += 1
            if consecutiveFailures >= settings.maxConsecutiveFailures {
                isFinished = true
                return .finish(error)
            }
            holdUntil = now + settings.backoff(attempt: consecutiveFailures)
            return .emit([])
        }
    }

    // MARK: Private

    private mutating func report(_ quote: CommonQuote, for symbol: String) -> [QuoteEvent] {
        reportedFailures[symbol] = nil
        // The hub keys rows by the symbol it subscribed, whatever spelling the broker answered with.
        var quote = quote
        quote.symbol = symbol
        guard lastQuotes[symbol] != quote else { return [] }
        lastQuotes[symbol] = quote
        return [.quote(quote)]
    }

    private mutating func report(_ error: BrokerError, for symbol: String) -> [QuoteEvent] {
        // The row now shows the failure, so the next quote must be emitted even if it equals the old one.
        lastQuotes[symbol] = nil
        if error.isPermanent { parked.insert(symbol) }
        guard reportedFailures[symbol] != error else { return [] }
        reportedFailures[symbol] = error
        return [.symbolFailed(symbol, error)]
    }

    /// Once nothing is due, the cycle is over and the next one is due `interval` later. Symbols subscribed
    /// between cycles are polled on their own and join the existing schedule; the very first poll of a
    /// session starts it.
    private mutating func endCycleIfDone(at now: Duration) {
        guard due.isEmpty else { return }
        if cycleInProgress || nextCycle == nil { nextCycle = now + settings.interval }
        cycleInProgress = false
    }

    /// Retry-After in seconds as a wait; nil when absent or unusable. An hour caps absurd values.
    private static func duration(_ seconds: Double?) -> Duration? {
        guard let seconds, seconds.isFinite, seconds > 0 else { return nil }
        return .milliseconds(Int64((min(seconds, 3600) * 1000).rounded(.up)))
    }
}
