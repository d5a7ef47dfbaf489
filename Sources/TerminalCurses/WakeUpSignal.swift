import TerminalKit
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe the UI thread polls, so any thread can wake it without locks: `signal()` leaves at most one
/// byte pending, however often it is called between two wake-ups.
///
/// After a wake-up the UI thread may leave it unarmed (`drain()` without `rearm()`): `signal()` then
/// writes nothing, and the thread looks at what was asked when it wakes for its own reasons (the frame
/// it has booked). While a frame waits for the cap, every quote batch used to wake it for nothing.
final class WakeUpSignal: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32
    private let pending = Atomic<Bool>(false)

    init() throws(TerminalError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .systemCallFailed(call: "pipe", errno: errno) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    func signal() {
        guard pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Wakes the UI thread even while it is unarmed, for what must not wait for the booked frame: `stop()`
    /// (the caller blocks until the thread has ended) and the bell. Writes a byte each time, as these are
    /// rare; `drain()` reads them all.
    func signalNow() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Called by the UI thread when poll reports the pipe readable, before it looks at what was asked.
    /// Leaves the signal unarmed: until `rearm()`, `signal()` writes nothing.
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &scratch, scratch.count) > 0 {}
    }

    /// Leaves the signal unarmed without a wake-up first: until `rearm()`, `signal()` writes nothing. The
    /// UI thread then looks at what was asked at a time of its own (`CursesEventLoop`'s `lookAt`).
    func disarm() {
        pending.store(true, ordering: .sequentiallyConsistent)
    }

    /// Lets the next `signal()` write again. The caller looks at what was asked after this: a
    /// `signal()` before it is answered by that look, one after it writes a byte. (Arming before the
    /// read in `drain` could swallow a byte and leave the flag set with an empty pipe.)
    func rearm() {
        pending.store(false, ordering: .sequentiallyConsistent)
    }
}
