import Domain
import Foundation
import Locking

/// One polling session as a value: which symbols it follows, which are due for a request, what it last
/// reported per symbol, and how it backs off. `PollingQuoteStreamSession` only carries out the steps this
/// returns (wait, request, emit, finish), so the behaviour is tested here without tasks or clocks.
/// Times are offsets on the session's clock.
///
/// Choices where the brief left room:
/// - `.live` is emitted with the first answer that was not a whole-request error, so "live" means the
///   credentials and the endpoint work; per-symbol verdicts in that answer still count. It is emitted
///   again with the first answer after a `.retrying`, whose quotes may all be unchanged.
/// - A failed request (429, 5xx, network, a body that could not be read) is the broker's failure, never a
///   verdict on the symbols it asked for: it emits `.retrying(at:after:)` with the time the next request
///   may go (the server's Retry-After for a 429, else a backoff), and the same symbols are asked for again
///   then. A row of an answer that carries such an error (a service that reports a per-symbol 429 or
///   500 as that symbol's result) counts as the same failed request; the rows that were answered still
///   report. Only an explicit answer about a symbol (unknown, not entitled, no price) is that row's.
/// - A symbol the answer leaves out got no answer this time, which says nothing about it: it is asked for
///   again next cycle. Whether a symbol is unknown is the broker's to say (`.unknownSymbol`).
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
    /// Whether the last request failed and `.retrying` was emitted: the next answer emits `.live` again.
    private(set) var isRetrying = false
    private var cycleInProgress = false
    private var lastQuotes: [String: CommonQuote] = [:]
    private var reportedFailures: [String: BrokerError] = [:]

    /// The wall-clock time of offset zero, for the times `.retrying` names.
    let epoch: Date

    init(settings: PollingSettings, epoch: Date) {
        self.settings = settings.clamped
        self.epoch = epoch
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
            var events: [QuoteEvent] = []
            var failure: BrokerError?
            for symbol in symbols where due.contains(symbol) {
                switch results[symbol] {
                case nil:
                    // No answer about it is no verdict: the next cycle asks again.
                    due.remove(symbol)
                case .success(let quote)?:
                    due.remove(symbol)
                    events += report(quote, for: symbol)
                case .failure(let error)? where Self.failsTheRequest(error):
                    // Stays due: asked for again when the wait is over.
                    failure = Self.moreTelling(failure, error)
                case .failure(let error)?:
                    due.remove(symbol)
                    events += report(error, for: symbol)
                }
            }
            if let failure { return requestFailed(failure, at: now, after: events) }
            consecutiveFailures = 0
            consecutiveRateLimits = 0
            if !isLive || isRetrying {
                isLive = true
                isRetrying = false
                events.insert(.live, at: 0)
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

        case .failure(let error):
            return requestFailed(error, at: now, after: [])
        }
    }

    /// Errors that say the request failed rather than anything about a symbol.
    static func failsTheRequest(_ error: BrokerError) -> Bool {
        switch error {
        case .rateLimited, .server, .network, .cancelled, .certificateRejected: true
        case .unauthorized, .unknownSymbol, .badResponse, .limitExceeded, .orderRejected, .insufficientBuyingPower,
             .liveTradingNotAllowed: false
        }
    }

    // MARK: Private

    /// The request failed: permanent errors end the stream; a 429 waits the time the server named (else a
    /// backoff) and is never the session's failure, since the provider is up; anything else backs off and
    /// ends the stream after `maxConsecutiveFailures` in a row, so the hub reconnects. `events` are those
    /// the answered rows of the same request produced.
    private mutating func requestFailed(_ error: BrokerError, at now: Duration, after events: [QuoteEvent]) -> Outcome {
        let wait: Duration
        switch error {
        case .rateLimited(let retryAfter):
            consecutiveRateLimits += 1
            wait = RequestPause.duration(retryAfter) ?? settings.backoff(attempt: consecutiveRateLimits)
        case _ where error.isPermanent:
            isFinished = true
            return .finish(error)
        default:
            consecutiveFailures += 1
            if consecutiveFailures >= settings.maxConsecutiveFailures {
                isFinished = true
                return .finish(error)
            }
            wait = settings.backoff(attempt: consecutiveFailures)
        }
        holdUntil = now + wait
        isRetrying = true
        return .emit(events + [.retrying(at: epoch.addingTimeInterval((now + wait).secondsValue), after: error)])
    }

    /// A 429 wins, since it carries the time to wait; otherwise the first failure.
    private static func moreTelling(_ current: BrokerError?, _ new: BrokerError) -> BrokerError {
        guard let current else { return new }
        if case .rateLimited = current { return current }
        if case .rateLimited = new { return new }
        return current
    }

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
}
