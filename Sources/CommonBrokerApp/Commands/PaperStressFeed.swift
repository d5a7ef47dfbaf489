import Domain
import Foundation
import Locking

/// The quotes `paper-stress` fills from: one made-up broker quoting a few symbols in a seeded random
/// walk (a cent up or down a tick, a two-cent spread), every `tick`, for the symbols its one
/// subscriber follows. The prices are a pure function of the seed and the tick count; only when ticks
/// happen depends on the machine. Newly followed symbols get their current quote at once, as the hub's
/// cache replays it.
final class PaperStressFeed: MarketFeed, Sendable {
    static let branding = ServiceBranding(id: "stress", name: "Stress Feed", glyph: "s", color: .white)
    static let symbols = ["AAPL", "MSFT", "NVDA", "SPY", "INTC"]

    private struct Walk {
        var random: SplitMix64
        /// Last trade per symbol, in cents.
        var cents: [String: Int64]
        var followed: Set<String> = []
        var sink: AsyncStream<MarketUpdate>.Continuation?
    }

    let brokers = [PaperStressFeed.branding]
    private let walk: Locked<Walk>
    private let tick: Duration

    init(seed: UInt64, tick: Duration = .milliseconds(2)) {
        var random = SplitMix64(seed: seed)
        var cents: [String: Int64] = [:]
        for symbol in Self.symbols { cents[symbol] = 5_000 + Int64(random.next() % 20_000) }
        walk = Locked(Walk(random: random, cents: cents))
        self.tick = tick
    }

    func subscribe(symbols: Set<String>) async -> MarketFeedSubscription {
        let (updates, sink) = AsyncStream<MarketUpdate>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let first = walk.withLock { walk in
            walk.sink?.finish()
            walk.sink = sink
            walk.followed = symbols
            return Self.quotes(walk, for: symbols)
        }
        if !first.quotes.isEmpty { sink.yield(first) }
        let ticker = Task { [self, tick] in
            while true {
                do { try await Task.sleep(for: tick) } catch { return }
                let update = walk.withLock { walk in
                    Self.step(&walk)
                    return Self.quotes(walk, for: walk.followed)
                }
                if !update.quotes.isEmpty { sink.yield(update) }
            }
        }
        return MarketFeedSubscription(
            updates: updates,
            setSymbols: { [self] symbols in
                let added = walk.withLock { walk in
                    defer { walk.followed = symbols }
                    return Self.quotes(walk, for: symbols.subtracting(walk.followed))
                }
                if !added.quotes.isEmpty { sink.yield(added) }
            },
            cancel: {
                ticker.cancel()
                sink.finish()
            })
    }

    func refresh(_ symbols: Set<String>) async {}

    private static func step(_ walk: inout Walk) {
        for symbol in symbols {
            let move: Int64 = walk.random.next() % 2 == 0 ? -1 : 1
            walk.cents[symbol] = max(100, (walk.cents[symbol] ?? 10_000) + move)
        }
    }

    private static func quotes(_ walk: Walk, for symbols: Set<String>) -> MarketUpdate {
        var quotes: [QuoteKey: CommonQuote] = [:]
        for symbol in symbols {
            guard let cents = walk.cents[symbol] else { continue }
            quotes[QuoteKey(brandID: branding.id, symbol: symbol)] = CommonQuote(
                symbol: symbol, last: price(cents: cents), timestamp: Date(), bid: price(cents: cents - 1), ask: price(cents: cents + 1))
        }
        return MarketUpdate(quotes: quotes)
    }

    private static func price(cents: Int64) -> ExactDecimal {
        ExactDecimal(units: cents * (ExactDecimal.unitsPerOne / 100))
    }
}
