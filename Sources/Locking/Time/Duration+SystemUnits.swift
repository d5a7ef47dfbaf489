#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Duration` in the units the rest of the system speaks: whole nanoseconds for atomics and sample
/// rings (a `Duration` is 128 bits and has no atomic form), a `timespec` for the calls that sleep or wait,
/// and seconds as a `Double` for figures and messages that are not money.
extension Duration {
    /// Whole nanoseconds, the remainder dropped; exact within ±292 years.
    @inlinable public var wholeNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// As nanosleep(2) and ppoll(2) take it. A negative duration (a deadline already passed) is zero:
    /// the calls refuse a negative `timespec` with EINVAL instead of returning at once.
    @inlinable public var timespecValue: timespec {
        guard self > .zero else { return timespec(tv_sec: 0, tv_nsec: 0) }
        let (seconds, attoseconds) = components
        return timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    }

    /// Seconds, for display and for rates (never for money).
    /// (Divided by 1e18, which a `Double` holds exactly, so the fraction is rounded once.)
    @inlinable public var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
