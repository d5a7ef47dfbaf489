/// Any `Clock<Duration>` reduced to time elapsed since this value was made, so actors and state
/// machines can keep plain `Duration` offsets instead of the clock's own instant type.
struct ElapsedClock: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleeper: @Sendable (Duration) async throws -> Void

    init(_ clock: any Clock<Duration>) {
        self.init(opening: clock)
    }

    private init<C: Clock<Duration>>(opening clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleeper = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }

    /// Time since this value was made.
    func now() -> Duration { elapsed() }

    /// Sleeps until `offset` after this value was made; returns at once when that has passed.
    /// Throws `CancellationError` when the task is cancelled.
    func sleep(until offset: Duration) async throws {
        try await sleeper(offset)
    }
}
