/// A CPU-bound test loop's turn on a cooperative-pool thread. Swift Testing runs sync and async tests
/// alike on Swift's global executor: two threads on two cores. A seeded run of thousands of mutants
/// holding one for seconds (several seconds on a busy machine) leaves every other test, and every task
/// those tests wait for, one thread or none. Calling `yieldIfDue()` in the loop gives the thread back
/// every `length`; the loop resumes behind the work queued meanwhile.
public struct TimeSlice {
    public static let length: Duration = .milliseconds(5)

    private var started = ContinuousClock.now

    public init() {}

    public mutating func yieldIfDue() async {
        guard ContinuousClock.now - started >= Self.length else { return }
        await Task.yield()
        started = ContinuousClock.now
    }
}
