import Domain
import Foundation

/// One demo stream connection as a value: which symbols it follows, which tick it is on, and what it
/// emits when symbols are subscribed or the market ticks. `DemoQuoteStreamSession` only executes
/// what this returns, so the stream's behaviour is tested here without tasks or clocks.
struct DemoStreamState: Sendable {
    let profile: DemoBrokerProfile
    let seed: UInt64
    /// The market tick the connection opened on.
    let startTick: Int
    /// Ticks after opening at which a flaky connection drops (its broker's next outage); nil when it
    /// never does.
    let dropAfter: Int?

    private(set) var symbols: Set<String> = []
    /// Ticks since opening.
    private(set) var elapsedTicks = 0
    private(set) var isFinished = false

    enum TickOutcome: Sendable, Hashable {
        case events([QuoteEvent])
        /// The connection drops now with this error; nothing more is emitted.
        case drop(BrokerError)
        /// Already closed or dropped.
        case finished
    }

    static let dropError = BrokerError.network("demo feed dropped")

    init(profile: DemoBrokerProfile, seed: UInt64, startTick: Int, outages: DemoOutageSchedule? = nil) {
        self.profile = profile
        self.seed = seed
        self.startTick = startTick
        self.dropAfter = outages.map { max(1, $0.outage(endingAfter: startTick).lowerBound - startTick) }
    }

    var currentTick: Int { startTick + elapsedTicks }

    /// Follows `requested`. Each symbol not followed before gets its quote right away (in symbol order);
    /// each symbol the broker rejects gets `.symbolFailed` and is not followed.
    mutating func subscribe(_ requested: Set<String>, at timestamp: Date) -> [QuoteEvent] {
        guard !isFinished else { return [] }
        var events: [QuoteEvent] = []
        for symbol in requested.sorted() {
            if profile.rejects.contains(symbol) {
                events.append(.symbolFailed(symbol, .unknownSymbol(symbol)))
            } else if symbols.insert(symbol).inserted {
                events.append(.quote(quote(symbol, at: timestamp)))
            }
        }
        return events
    }

    mutating func unsubscribe(_ removed: Set<String>) {
        symbols.subtract(removed)
    }

    /// Moves to `elapsed` ticks since opening (a stalled clock may skip ticks; going back is ignored)
    /// and returns what that tick emits: a quote for each followed symbol that updates on it.
    mutating func advance(toElapsed elapsed: Int, at timestamp: Date) -> TickOutcome {
        guard !isFinished else { return .finished }
        elapsedTicks = max(elapsedTicks, elapsed)
        if let dropAfter, elapsedTicks >= dropAfter {
            isFinished = true
            return .drop(Self.dropError)
        }
        let tick = currentTick
        let events: [QuoteEvent] = symbols.sorted()
            .filter { DemoMarket.updates(symbol: $0, brokerID: profile.branding.id, tick: tick, seed: seed) }
            .map { .quote(quote($0, at: timestamp)) }
        return .events(events)
    }

    mutating func close() {
        isFinished = true
        symbols = []
    }

    private func quote(_ symbol: String, at timestamp: Date) -> CommonQuote {
        DemoMarket.quote(symbol: symbol, profile: profile, tick: currentTick, seed: seed, timestamp: timestamp)
    }
}
