import Foundation
import Locking

/// One thread that makes the paced reads (`WebSocketReadPacing`) of every connection given it, all at
/// their slot, in one wake-up.
///
/// With reads paced to the screen's frames, each connection's I/O thread woke once a frame for its read
/// alone: at 1,000 events a second four streaming brokers made 138 thread switches a second on their I/O
/// threads, and each woke the market-data thread on its own, for about a third of the app's CPU. The
/// slots of all connections are the same instants (the frame clock's), so one thread reads them all at
/// once and hands the messages over together, waking the thread behind them once.
///
/// A connection's own I/O thread still connects, writes, keeps the heartbeat and closes; while its reads
/// are held for a slot it gives the slot to this reader (`schedule`) and sleeps until something else
/// needs it. The reader takes the connection's lock for the read (`WebSocketIOLoop.readAtSlot`), so the
/// socket and the TLS state are still used by one thread at a time; it wakes the I/O thread when the read
/// leaves it work (a pong to send, a close, a hang-up, or no further slot: a quiet stream reads on
/// arrival, on its own thread).
///
/// The thread is started with the first slot given it and lives as long as the process: the app keeps
/// one reader for every stream.
public final class WebSocketSlotReader: Sendable {
    private enum Sleep {
        case awake
        case until(ContinuousClock.Instant)
        case withoutEnd
    }

    private struct Schedule {
        /// Each connection's slot, by connection.
        var slots: [ObjectIdentifier: (loop: WebSocketIOLoop, slot: ContinuousClock.Instant)] = [:]
        var sleep = Sleep.awake
        var started = false
        /// The frames' slots moved (`slotsMayHaveMoved`): each connection works its slot out again.
        var review = false
    }

    private let name: String
    private let wakePipe: WebSocketWakePipe
    private let schedule = Locked(Schedule())

    public init(name: String = "ws paced reads") throws(WebSocketError) {
        self.name = name
        wakePipe = try WebSocketWakePipe()
    }

    /// `loop` reads next at `slot` (replacing the slot it had). Called with the loop's lock held.
    func schedule(_ loop: WebSocketIOLoop, at slot: ContinuousClock.Instant) {
        let (start, wake) = schedule.withLock { schedule -> (Bool, Bool) in
            schedule.slots[ObjectIdentifier(loop)] = (loop, slot)
            let start = !schedule.started
            schedule.started = true
            // The thread sleeps past this slot: it must wake to sleep until this one instead.
            let wake = switch schedule.sleep {
            case .awake: false
            case .until(let until): slot < until
            case .withoutEnd: true
            }
            if wake { schedule.sleep = .awake }
            return (start, wake)
        }
        if start { startThread() }
        if wake { wakePipe.wake() }
    }

    /// The frames after a pause fall elsewhere than the slots booked foresaw (`FrameClock.whenFramesResume`):
    /// the thread wakes, and each connection works its slot out again (`WebSocketIOLoop.reviewSlot`), so
    /// that a slot now earlier than the one booked is not slept through. Only signals.
    public func slotsMayHaveMoved() {
        let wake = schedule.withLock { schedule -> Bool in
            guard schedule.started, !schedule.slots.isEmpty else { return false }
            schedule.review = true
            if case .awake = schedule.sleep { return false }
            schedule.sleep = .awake
            return true
        }
        if wake { wakePipe.wake() }
    }

    /// `loop` reads on its own thread from now on, or has ended.
    func withdraw(_ loop: WebSocketIOLoop) {
        schedule.withLock { _ = $0.slots.removeValue(forKey: ObjectIdentifier(loop)) }
    }

    private func startThread() {
        let name = name
        let thread = Thread { [self] in
            KernelThreadName.setForCurrentThread(name)
            PipeSignal.blockOnThisThread()
            run()
        }
        thread.name = name
        thread.start()
    }

    private func run() {
        var due: [(loop: WebSocketIOLoop, slot: ContinuousClock.Instant)] = []
        while true {
            let earliest = schedule.withLock { schedule -> ContinuousClock.Instant? in
                // Asked while this thread was awake, which no wake-up told it: the review comes first.
                if schedule.review {
                    schedule.sleep = .awake
                    return .now
                }
                let earliest = schedule.slots.values.lazy.map(\.slot).min()
                schedule.sleep = earliest.map(Sleep.until) ?? .withoutEnd
                return earliest
            }
            let readiness = WebSocketPoller.wait(socket: -1, for: [], wakeDescriptor: wakePipe.readDescriptor, until: earliest)
            if readiness.woken { wakePipe.drain() }
            let review = schedule.withLock { schedule -> [WebSocketIOLoop] in
                schedule.sleep = .awake
                guard schedule.review else { return [] }
                schedule.review = false
                return schedule.slots.values.map(\.loop)
            }
            // Each takes its own lock, and books its slot again through `schedule` if it moved earlier.
            for loop in review { loop.reviewSlot(for: self) }
            let now = ContinuousClock.now
            schedule.withLock { schedule in
                schedule.sleep = .awake
                for entry in schedule.slots.values where entry.slot <= now { due.append(entry) }
                for entry in due { schedule.slots.removeValue(forKey: ObjectIdentifier(entry.loop)) }
            }
            guard !due.isEmpty else { continue }
            for entry in due { entry.loop.readAtSlot(entry.slot, for: self) }
            // Every connection read before any hands its messages over: the thread behind them (the
            // market-data thread) is woken once for all of them, not once per connection.
            for entry in due { entry.loop.deliverHeldMessages() }
            due.removeAll(keepingCapacity: true)
        }
    }
}
