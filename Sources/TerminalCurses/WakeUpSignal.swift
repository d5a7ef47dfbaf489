import TerminalKit
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe the UI thread polls, so any thread can wake it without locks: at most one byte is ever
/// pending, however often `signal()` is called between two wake-ups.
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

    /// Called by the UI thread when poll reports the pipe readable, before it looks at what was asked.
    /// The flag is cleared after reading: a `signal()` in between is answered by the work the caller
    /// does next; clearing first could swallow its byte and leave the flag set with an empty pipe.
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &scratch, scratch.count) > 0 {}
        pending.store(false, ordering: .sequentiallyConsistent)
    }
}
