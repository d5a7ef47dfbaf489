import Synchronization

/// An instant one thread publishes and others read without a lock (when the last frame drew, when the
/// last redraw was asked for). `ContinuousClock.Instant` has no atomic form, so it is kept as whole
/// nanoseconds after an origin fixed at creation (instants within ±292 years of it).
///
/// Loads and stores are relaxed: the instant alone is published. Where readers must also see what was
/// written before it, order it with a releasing store and an acquiring load of another atomic.
public struct AtomicInstant: ~Copyable, Sendable {
    @usableFromInline let origin: ContinuousClock.Instant
    /// Nanoseconds after `origin`; `Int64.min` until the first store.
    @usableFromInline let nanoseconds = Atomic<Int64>(.min)

    public init(origin: ContinuousClock.Instant = .now) {
        self.origin = origin
    }

    @inlinable public func store(_ instant: ContinuousClock.Instant) {
        nanoseconds.store(origin.duration(to: instant).wholeNanoseconds, ordering: .relaxed)
    }

    /// The last instant stored, to the nanosecond; nil before the first.
    @inlinable public func load() -> ContinuousClock.Instant? {
        let stored = nanoseconds.load(ordering: .relaxed)
        return stored == .min ? nil : origin + .nanoseconds(stored)
    }
}
