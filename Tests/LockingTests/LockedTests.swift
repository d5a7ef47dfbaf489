import Dispatch
import Locking
import Testing

@Suite struct LockedTests {
    /// Threads (not tasks: a cooperative pool on two cores seldom contends) that increment a counter: the
    /// lock must let no increment be lost. Under `make test-tsan` this is also the case where TSan saw
    /// `Mutex`'s kernel hand-over as a race; a report here would fail that run.
    @Test func concurrentIncrementsAreNeverLost() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 16_000)
    }

    /// `Locked(())` as a bare lock around state it does not hold. Under `make test-tsan` this caught a
    /// false report of `Locked`'s own: the value had been a stored property, and the access to an empty
    /// one lands on the object's first word, which every caller reads before it locks.
    @Test func aBareLockGuardsStateOutsideIt() {
        final class Tally: @unchecked Sendable { var count = 0 }
        let gate = Locked(())
        let tally = Tally()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2_000 { gate.withLock { _ in tally.count += 1 } }
        }
        #expect(gate.withLock { _ in tally.count } == 16_000)
    }

    /// An error thrown inside `withLock` reaches the caller and leaves the value as the body changed it
    /// and the lock free: the next `withLock` (on the same thread, which a held lock would deadlock)
    /// sees the change.
    @Test func aThrowingBodyReleasesTheLockAndKeepsItsChange() {
        struct Refused: Error, Equatable {}
        let names = Locked<[String]>([])
        #expect(throws: Refused()) {
            try names.withLock { (names) throws(Refused) in
                names.append("AAPL")
                throw Refused()
            }
        }
        names.withLock { $0.append("MSFT") }
        #expect(names.withLock { $0 } == ["AAPL", "MSFT"])
    }

    /// One allocation holds the mutex and the value: copies of a `Locked` share it, and a value that
    /// cannot be copied is destroyed exactly once, when the last copy goes.
    @Test func copiesShareTheValueWhichIsDestroyedOnceWithTheLast() {
        final class Count: @unchecked Sendable { var value = 0 }
        struct Probe: ~Copyable {
            let deinits: Count
            var number = 0
            deinit { deinits.value += 1 }
        }
        let deinits = Count()
        do {
            let first = Locked(Probe(deinits: deinits))
            let second = first
            second.withLock { $0.number = 7 }
            withExtendedLifetime((first, second)) {
                #expect(first.withLock { $0.number } == 7)
                #expect(deinits.value == 0)
            }
        }
        #expect(deinits.value == 1)
    }
}
