import Testing
@testable import TerminalCurses
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The UI thread's wake-up pipe: one byte however many signals, and none at all while the UI thread
/// has left it unarmed for a frame it has booked.
@Suite struct WakeUpSignalTests {
    /// Whether the pipe has a byte to read, without waiting.
    private func isReadable(_ signal: WakeUpSignal) -> Bool {
        var descriptor = pollfd(fd: signal.readEnd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    /// The bytes waiting in the pipe, read without draining through the signal.
    private func pendingBytes(_ signal: WakeUpSignal) -> Int {
        var scratch = [UInt8](repeating: 0, count: 64)
        var total = 0
        while true {
            let count = read(signal.readEnd, &scratch, scratch.count)
            guard count > 0 else { return total }
            total += count
        }
    }

    @Test func manySignalsWriteOneByte() throws {
        let signal = try WakeUpSignal()
        for _ in 0..<10 { signal.signal() }
        #expect(pendingBytes(signal) == 1)
    }

    @Test func afterADrainSignalsWriteNothingUntilRearmed() throws {
        let signal = try WakeUpSignal()
        signal.signal()
        #expect(isReadable(signal))
        signal.drain()
        #expect(!isReadable(signal))
        signal.signal()
        #expect(!isReadable(signal), "unarmed: the booked frame will look at what was asked")
        signal.rearm()
        #expect(!isReadable(signal))
        signal.signal()
        #expect(isReadable(signal), "armed again: the next request wakes the loop")
        signal.drain()
        signal.rearm()
        signal.signal()
        signal.signal()
        #expect(pendingBytes(signal) == 1)
    }

    /// After a frame drawn for a change, paced streams' next prices come before the next frame anyway:
    /// the loop disarms the pipe without having been woken, and looks at that frame's due time.
    @Test func aDisarmedSignalWritesNothingUntilRearmedAndAnUrgentOneStillWakes() throws {
        let signal = try WakeUpSignal()
        signal.disarm()
        signal.signal()
        signal.signal()
        #expect(!isReadable(signal), "disarmed: the loop looks at its own time")
        signal.rearm()
        signal.signal()
        #expect(pendingBytes(signal) == 1, "armed again: the next request wakes the loop, once")
        signal.rearm()
        signal.disarm()
        signal.signalNow()
        #expect(pendingBytes(signal) == 1, "a stop or the bell wakes it even while disarmed")
    }

    /// `stop()` blocks its caller until the UI thread ends, so it must not wait for a booked frame.
    @Test func anUrgentSignalWakesTheThreadEvenWhileUnarmed() throws {
        let signal = try WakeUpSignal()
        signal.signal()
        signal.drain()
        signal.signal()
        #expect(!isReadable(signal))
        signal.signalNow()
        #expect(isReadable(signal), "unarmed, yet the stop or the bell wakes the loop")
        signal.drain()
        #expect(!isReadable(signal))
        signal.rearm()
        signal.signal()
        signal.signalNow()
        #expect(pendingBytes(signal) == 2, "each urgent signal writes its byte; a drain reads them all")
    }
}
