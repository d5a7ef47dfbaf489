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
/// Uncontended, a lock and unlock costs about 2 ns more than `Mutex`'s (the call into libc).
///
/// One allocation holds the mutex and the value (`LockedStorage`, a `ManagedBuffer`): a
/// `pthread_mutex_t` must never move, and an object's storage never does. It was three (the object, the
/// mutex and the value), which made a lock around a few bytes cost about 128 bytes of heap; a hub
/// subscriber holds two. Copies of a `Locked` share its storage, as references to a class did.
public struct Locked<Value: ~Copyable>: @unchecked Sendable {
    @usableFromInline let storage: LockedStorage<Value>

    public init(_ initialValue: consuming sending Value) {
        storage = LockedStorage.make(initialValue)
    }

    /// Runs `body` with the value while holding the lock. Not reentrant: calling `withLock` on the same
    /// `Locked` from inside `body` deadlocks, as with `Mutex`.
    @inlinable
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // The pointers stay valid while `storage` lives, and this value holds it for the whole call.
        let (mutex, value) = (storage.mutex, storage.value)
        let locked = pthread_mutex_lock(mutex)
        precondition(locked == 0, "Locked: pthread_mutex_lock failed with error \(locked)")
        defer {
            let unlocked = pthread_mutex_unlock(mutex)
            precondition(unlocked == 0, "Locked: pthread_mutex_unlock failed with error \(unlocked)")
            withExtendedLifetime(storage) {}
        }
        return try body(&value.pointee)
    }
}

/// `Locked`'s storage: the mutex as the buffer's header, the value as its one element.
///
/// The value is reached through the element pointer, never a stored property: an `inout` access to a
/// stored property is instrumented under TSan, and for an empty `Value` (`Locked<Void>` as a bare lock)
/// it landed on the object's first word, which every caller read, unlocked, to find the mutex; TSan took
/// the two for a race. A pointer's `pointee`, like `Mutex`'s own storage, is not instrumented that way.
@usableFromInline final class LockedStorage<Value: ~Copyable>: ManagedBuffer<pthread_mutex_t, Value> {
    @usableFromInline static func make(_ initialValue: consuming sending Value) -> LockedStorage {
        let storage = unsafeDowncast(create(minimumCapacity: 1) { _ in pthread_mutex_t() }, to: LockedStorage.self)
        let status = pthread_mutex_init(storage.mutex, nil)
        precondition(status == 0, "Locked: pthread_mutex_init failed with error \(status) (out of memory?)")
        storage.value.initialize(to: initialValue)
        return storage
    }

    /// Where the mutex and the value live, for as long as this object does.
    @inlinable var mutex: UnsafeMutablePointer<pthread_mutex_t> { withUnsafeMutablePointerToHeader { $0 } }
    @inlinable var value: UnsafeMutablePointer<Value> { withUnsafeMutablePointerToElements { $0 } }

    deinit {
        pthread_mutex_destroy(mutex)
        value.deinitialize(count: 1)
    }
}
