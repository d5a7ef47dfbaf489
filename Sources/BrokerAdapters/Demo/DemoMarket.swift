import Domain
import Foundation
import Locking

/// The demo's price model: pure functions of (seed, symbol, broker, tick), so the same seed gives the
/// same prices in every process and any tick costs the same to compute, however far from zero it is.
///
/// The consensus price is `base · exp(walk)`, where `walk` is fractal value noise: octave k puts a
/// hashed random value every 4^k ticks, interpolates linearly between them, and weighs it by 2^k.
/// That is the √t growth of a random walk at every scale up to the largest octave (~36 h at 500 ms
/// ticks), bounded beyond it, and never negative. Each broker adds a fixed bias and its own tiny
/// noise, so the brokers track one market but visibly disagree by a few basis points.
///
/// The model runs in `Double` (it is a random walk, not money); what a broker quotes is rounded to whole
/// cents, half away from zero, and handed out as `ExactDecimal` built from those cents.
public enum DemoMarket {
    /// One demo trading day: 6 h at the default 500 ms tick. `previousClose` and volume restart on it.
    public static let ticksPerDay = 43_200
    /// Where a symbol's base price falls, log-uniformly, so most look like ordinary stocks.
    public static let basePriceRange: ClosedRange<Double> = 5...900
    /// Share of ticks on which a streamed symbol updates, so the screen looks alive but not uniform.
    public static let updateProbability = 0.7

    static let octaves = 10
    /// Weight of the finest octave in log-price: about 2 basis points of move per tick.
    static let tickVolatility = 2.0e-4
    /// Per-broker noise in log-price, on top of the broker's bias.
    static let brokerNoise = 1.0e-4

    // MARK: Time

    /// The market tick at `date`: ticks count from the Unix epoch, so every broker and every process
    /// agrees on which tick it is.
    public static func tick(at date: Date, interval: Duration) -> Int {
        let seconds = interval.secondsValue
        guard seconds > 0 else { return 0 }
        return Int((date.timeIntervalSince1970 / seconds).rounded(.down))
    }

    /// The first tick of the demo day holding `tick`.
    public static func dayStart(of tick: Int) -> Int {
        floorDivision(tick, ticksPerDay) * ticksPerDay
    }

    // MARK: Prices

    /// The symbol's long-run price level, in cents; independent of the seed so a symbol keeps its
    /// familiar price across demo runs. Well-known tickers and indexes sit near where they really trade
    /// (`DemoReferenceLevels`), others fall in `basePriceRange` by a hash of the symbol.
    public static func basePrice(symbol: String) -> Double {
        if let level = DemoReferenceLevels.levels[symbol] { return level }
        let low = log(basePriceRange.lowerBound), high = log(basePriceRange.upperBound)
        let u = DemoHash.unit(DemoHash.splitMix(DemoHash.fnv1a(symbol)))
        return roundedToCents(exp(low + u * (high - low)))
    }

    /// The market's consensus price before any broker's bias or noise, unrounded.
    public static func referencePrice(symbol: String, tick: Int, seed: UInt64) -> Double {
        basePrice(symbol: symbol) * exp(walk(key: symbolKey(symbol, seed: seed), tick: tick))
    }

    /// What `brokerID` quotes as last price at `tick`, in cents.
    public static func price(symbol: String, brokerID: String, priceBias: Double, tick: Int, seed: UInt64) -> ExactDecimal {
        exact(cents: priceCents(symbol: symbol, brokerID: brokerID, priceBias: priceBias, tick: tick, seed: seed))
    }

    /// The consensus price at the start of `tick`'s day, in cents; the same for every broker all day,
    /// so change and change % are stable and comparable across rows.
    public static func previousClose(symbol: String, tick: Int, seed: UInt64) -> ExactDecimal {
        exact(cents: cents(referencePrice(symbol: symbol, tick: dayStart(of: tick), seed: seed)))
    }

    /// Shares traded so far today through `brokerID`: grows every tick, faster and slower through the
    /// day, and restarts at the day's first tick. Each broker sees its own share of the symbol's trading
    /// (15–60 %, seeded), so the brokers' volumes differ as real venues' do.
    public static func volume(symbol: String, brokerID: String, tick: Int, seed: UInt64) -> Int64 {
        let key = symbolKey(symbol, seed: seed)
        let brokerShare = 0.15 + 0.45 * DemoHash.unit(DemoHash.mix(DemoHash.mix(key, DemoHash.fnv1a(brokerID)), "volume share"))
        let sharesPerTick = brokerShare * 20 * exp(DemoHash.unit(DemoHash.mix(key, "volume")) * log(250.0))
        let elapsed = Double(tick - dayStart(of: tick))
        // d/dt (t + ½·p/2π·sin(2πt/p)) = 1 + ½·cos(…) > 0: the total never shrinks within a day.
        let period = Double(ticksPerDay) / 4
        let shaped = elapsed + 0.5 * period / (2 * .pi) * sin(2 * .pi * elapsed / period)
        return Int64((sharesPerTick * shaped).rounded(.down))
    }

    /// The full quote `profile`'s broker gives for `symbol` at `tick`: bid and ask half the broker's spread
    /// (at least a cent) either side of the last price.
    public static func quote(
        symbol: String, profile: DemoBrokerProfile, tick: Int, seed: UInt64, timestamp: Date
    ) -> CommonQuote {
        let last = priceCents(symbol: symbol, brokerID: profile.branding.id, priceBias: profile.priceBias, tick: tick, seed: seed)
        let halfSpread = max(1, cents(Double(last) / 100 * profile.spread / 2))
        return CommonQuote(
            symbol: symbol, last: exact(cents: last), timestamp: timestamp,
            bid: exact(cents: last - halfSpread), ask: exact(cents: last + halfSpread),
            previousClose: previousClose(symbol: symbol, tick: tick, seed: seed),
            volume: volume(symbol: symbol, brokerID: profile.branding.id, tick: tick, seed: seed)
        )
    }

    // MARK: Stream behaviour

    /// Whether `brokerID`'s stream sends `symbol` on `tick` (with `updateProbability`).
    public static func updates(symbol: String, brokerID: String, tick: Int, seed: UInt64) -> Bool {
        let key = DemoHash.mix(DemoHash.mix(symbolKey(symbol, seed: seed), DemoHash.fnv1a(brokerID)), "update")
        return DemoHash.unit(DemoHash.mix(key, tick)) < updateProbability
    }

    // MARK: Internals

    static func symbolKey(_ symbol: String, seed: UInt64) -> UInt64 {
        DemoHash.mix(DemoHash.splitMix(seed), DemoHash.fnv1a(symbol))
    }

    /// Fractal value noise in log-price; see the type's comment.
    static func walk(key: UInt64, tick: Int) -> Double {
        var sum = 0.0
        var spacing = 1
        var weight = tickVolatility
        for octave in 0..<octaves {
            let octaveKey = DemoHash.mix(key, octave)
            let cell = floorDivision(tick, spacing)
            let fraction = Double(tick &- cell &* spacing) / Double(spacing)
            let from = DemoHash.signedUnit(DemoHash.mix(octaveKey, cell))
            let to = DemoHash.signedUnit(DemoHash.mix(octaveKey, cell &+ 1))
            sum += weight * (from + (to - from) * fraction)
            spacing *= 4
            weight *= 2
        }
        return sum
    }

    static func floorDivision(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// `brokerID`'s last price at `tick` in whole cents.
    static func priceCents(symbol: String, brokerID: String, priceBias: Double, tick: Int, seed: UInt64) -> Int64 {
        let brokerKey = DemoHash.mix(symbolKey(symbol, seed: seed), DemoHash.fnv1a(brokerID))
        let noise = brokerNoise * DemoHash.signedUnit(DemoHash.mix(brokerKey, tick))
        return cents(referencePrice(symbol: symbol, tick: tick, seed: seed) * exp(priceBias + noise))
    }

    /// A model price in dollars to whole cents, half away from zero. The walk is bounded (a few times its
    /// base level at most), so the cents are far inside `Int64`.
    static func cents(_ dollars: Double) -> Int64 {
        Int64((dollars * 100).rounded())
    }

    /// A model level rounded to cents, still in the model's `Double` (base prices).
    static func roundedToCents(_ value: Double) -> Double {
        (value * 100).rounded() / 100
    }

    /// Whole cents as the exact price a quote carries.
    static func exact(cents: Int64) -> ExactDecimal {
        ExactDecimal(units: cents * (ExactDecimal.unitsPerOne / 100))
    }
}
