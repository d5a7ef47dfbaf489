#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that one thread at a time reads and changes, inside `withLock`, behind a POSIX mutex.
///
/// The project's lock, in place of `Synchronization.Mutex`, so that `make test-tsan` can tell real races
/// from lock hand-overs. On Linux `Mutex` is a priority-inheritance futex: when two threads contend, the
/// lock passes between them inside the kernel (FUTEX_LOCK_PI / FUTEX_UNLOCK_PI, called from the
/// uninstrumented libswiftSynchronization), so ThreadSanitizer sees no happens-before edge between the
/// two holders and reports their critical sections as a data race. Reproduced with four threads
/// incrementing a counter inside `Mutex.withLock`: the count came out exact and TSan still reported the
/// increments; the Swift runtime's own futex lock needed TSan annotations for the same reason
/// (swiftlang/swift#66721). TSan intercepts `pthread_mutex_lock` and `pthread_mutex_unlock`, so every
/// report through this lock is a real race, and it checks lock order as well.
///
/// Like `Mutex`, the value goes in and comes out `sending`, so `Locked` is `Sendable` whatever `Value` is.
/// Uncontended, a lock and unlock costs about 2 ns more than `Mutex`'s (the call into libc); the mutex
/// has its own allocation because a `pthread_mutex_t` must never move.
public final class Locked<Value: ~Copyable>: @unchecked Sendable {
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The value lives behind a pointer rather than in a stored property: an `inout` access to a stored
    /// property is instrumented under TSan, and for an empty `Value` (`Locked<Void>` as a bare lock) it
    /// lands on the object's first word, which every caller reads, unlocked, to find `mutex`; TSan took
    /// the two for a race. A pointer's `pointee`, like `Mutex`'s own storage, is not instrumented that way.
    @usableFromInline let value: UnsafeMutablePointer<Value>

    public init(_ initialValue: consuming sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "Locked: pthread_mutex_init failed with error \(status) (out of memory?)")
        value = .allocate(capacity: 1)
        value.initialize(to: initialValue)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value while holding the lock. Not reentrant: calling `withLock` on the same
    /// `Locked` from inside `body` deadlocks, as with `Mutex`.
    @inlinable
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "Locked: pthread_mutex_lock failed with error \(locked)")
        defer {
            let unlocked = pthread_mutex_unlock(mutex)
            precondition(unlocked == 0, "Locked: pthread_mutex_unlock failed with error \(unlocked)")
        }
        return try body(&value.pointee)
    }
}
