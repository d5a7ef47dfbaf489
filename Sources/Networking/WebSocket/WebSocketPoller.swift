import Foundation
import Locking
#if canImport(Glibc)
import CGlibcPoll
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One blocking poll() on a socket and a wake-up pipe: the only place the I/O thread sleeps. With no
/// deadline it sleeps until the kernel has something for it, so an idle connection costs no CPU.
///
/// On Linux the wait is ppoll(2), to the nanosecond: a paced read (`WebSocketReadPacing`) wakes at its
/// slot, where poll(2)'s whole milliseconds, rounded up, woke it up to a millisecond late, and every
/// price read then waited that much longer for its frame (the learnt lead grew to cover it).
enum WebSocketPoller {
    struct Readiness {
        var readable = false
        var writable = false
        /// POLLERR / POLLHUP / POLLNVAL: reading will tell what happened.
        var failed = false
        var woken = false
    }

    static func wait(socket: Int32, for wanted: Set<WebSocketTransportWait>, wakeDescriptor: Int32, until deadline: ContinuousClock.Instant?) -> Readiness {
        var events: Int16 = 0
        if wanted.contains(.readable) { events |= Int16(POLLIN) }
        if wanted.contains(.writable) { events |= Int16(POLLOUT) }
        var descriptors = [
            pollfd(fd: socket, events: events, revents: 0),
            pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let result = descriptors.withUnsafeMutableBufferPointer { buffer in
                wait(buffer, until: deadline)
            }
            if result < 0 {
                if errno == EINTR { continue }
                return Readiness(failed: true)
            }
            let socketEvents = descriptors[0].revents
            return Readiness(
                readable: socketEvents & Int16(POLLIN) != 0,
                writable: socketEvents & Int16(POLLOUT) != 0,
                failed: socketEvents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0,
                woken: descriptors[1].revents != 0
            )
        }
    }

#if os(Linux)
    private static func wait(_ descriptors: UnsafeMutableBufferPointer<pollfd>, until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let timeout = timeout(until: deadline) else {
            return cb_ppoll(descriptors.baseAddress, nfds_t(descriptors.count), nil, nil)
        }
        var remaining = timeout
        return cb_ppoll(descriptors.baseAddress, nfds_t(descriptors.count), &remaining, nil)
    }
#else
    private static func wait(_ descriptors: UnsafeMutableBufferPointer<pollfd>, until deadline: ContinuousClock.Instant?) -> Int32 {
        poll(descriptors.baseAddress, nfds_t(descriptors.count), timeoutMilliseconds(until: deadline))
    }
#endif

    /// What is left until `deadline` as ppoll(2) takes it; nil waits without end, zero when it has passed.
    static func timeout(until deadline: ContinuousClock.Instant?, now: ContinuousClock.Instant = .now) -> timespec? {
        guard let deadline else { return nil }
        return now.duration(to: deadline).timespecValue
    }

    /// Rounded up, so a deadline 0.4 ms away does not turn into a busy poll(…, 0) loop.
    static func timeoutMilliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: milliseconds)
    }
}
