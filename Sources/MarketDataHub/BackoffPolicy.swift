/// Exponential backoff with a cap and optional jitter, as a pure function of the attempt number.
public struct BackoffPolicy: Sendable, Hashable {
    public var initial: Duration
    public var multiplier: Double
    public var maximum: Duration
    /// Fraction of the delay randomized away (0 = none). Jitter spreads reconnects of many clients.
    public var jitter: Double

    public init(initial: Duration = .milliseconds(500), multiplier: Double = 2, maximum: Duration = .seconds(30), jitter: Double = 0.2) {
        self.initial = initial
        self.multiplier = multiplier
        self.maximum = maximum
        self.jitter = jitter
    }

    /// The delay before reconnect attempt `attempt` (1-based). `unitRandom` in 0..<1 picks the jitter.
    public func delay(attempt: Int, unitRandom: Double = 0) -> Duration {
        let base = Double(initial.components.seconds) + Double(initial.components.attoseconds) / 1e18
        let cap = Double(maximum.components.seconds) + Double(maximum.components.attoseconds) / 1e18
        let raw = min(cap, base * pow(multiplier, Double(max(0, attempt - 1))))
        let jittered = raw * (1 - jitter * unitRandom)
        return .milliseconds(Int64((jittered * 1000).rounded()))
    }
}

private func pow(_ base: Double, _ exponent: Double) -> Double {
    var result = 1.0
    for _ in 0..<Int(exponent) { result *= base }
    return result
}
