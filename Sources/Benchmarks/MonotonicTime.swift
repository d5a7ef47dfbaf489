#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock: cheap enough to stamp every quote, and comparable across threads.
enum MonotonicTime {
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Blocks the calling thread until `deadline`; an absolute deadline keeps a paced producer on
    /// schedule instead of accumulating each sleep's overshoot.
    static func sleep(until deadline: UInt64) {
        #if canImport(Glibc)
        var target = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &target, nil) == EINTR {}
        #else
        let current = now()
        guard deadline > current else { return }
        usleep(useconds_t((deadline - current) / 1_000))
        #endif
    }

    /// CPU time of the whole process, every thread, user and system: unlike wall time, it barely moves
    /// when other processes load the machine, so it compares runs on a busy machine.
    static func processCPU() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    static func seconds(_ nanoseconds: UInt64) -> Double { Double(nanoseconds) / 1e9 }
}
