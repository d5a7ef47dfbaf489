import Foundation

/// Integer epoch timestamps in the unit a broker uses: Tradier milliseconds, Polygon REST nanoseconds,
/// Finnhub REST seconds. The value is split into whole seconds and a remainder in integer arithmetic, so
/// nanosecond values (about 1.7e18, above 2^53) never lose their seconds in a `Double`.
public enum EpochTimestamp: Sendable, Hashable, CaseIterable {
    case seconds
    case milliseconds
    case microseconds
    case nanoseconds

    /// Units per second.
    public var scale: Int64 {
        switch self {
        case .seconds: 1
        case .milliseconds: 1_000
        case .microseconds: 1_000_000
        case .nanoseconds: 1_000_000_000
        }
    }

    public func date(from value: Int64) -> Date {
        // Floor division, so instants before 1970 keep a remainder in 0..<scale.
        var seconds = value / scale
        var remainder = value % scale
        if remainder < 0 {
            seconds -= 1
            remainder += scale
        }
        return Self.date(seconds: seconds, nanoseconds: remainder * (1_000_000_000 / scale))
    }

    /// `seconds` since 1970 plus `nanoseconds` (0..<1e9), rounded once into a `Date`: the seconds are moved
    /// to `Date`'s own reference (2001) in integers, then the fraction is added.
    static func date(seconds: Int64, nanoseconds: Int64) -> Date {
        let sinceReference = seconds - Int64(Date.timeIntervalBetween1970AndReferenceDate)
        return Date(timeIntervalSinceReferenceDate: Double(sinceReference) + Double(nanoseconds) / 1e9)
    }
}
