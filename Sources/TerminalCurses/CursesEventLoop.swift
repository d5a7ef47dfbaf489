import CNcursesw
import Foundation
import Locking
import TerminalKit
#if canImport(Glibc)
import CGlibcPoll
#endif

/// The UI thread's loop: sleeps in poll(2) on stdin, the wake-up pipe and the signal pipe, reads keys,
/// follows signals, and draws frames on the schedule. Lives and dies on the UI thread.
final class CursesEventLoop {
    struct Callbacks {
        var frame: @Sendable (ScreenSize, Date) -> ScreenBuffer
        var onKey: @Sendable (KeyPress) -> Void
        var onResize: @Sendable (ScreenSize) -> Void
        /// Publishes the size for `TerminalSession.size`.
        var sizeChanged: (ScreenSize) -> Void
        var stopRequested: () -> Bool
        /// True once after `TerminalSession.ringBell`.
        var takeBellRequest: () -> Bool
        /// What was asked since the last look.
        var takeRedrawRequests: () -> RedrawRequests
    }

    struct RedrawRequests {
        /// A redraw for a change (`setNeedsDisplay`).
        var display = false
        /// A redraw for time passing alone (`setNeedsTimedRedraw`).
        var timed = false
        /// When the latest `setNeedsDisplay` was made: how late the paced reads' prices came sets the
        /// next frames' read lead.
        var lastDisplayRequest: ContinuousClock.Instant?
    }

    private let screen: CursesScreen
    private let wakeUp: WakeUpSignal
    private let signalReadEnd: Int32
    private let callbacks: Callbacks
    private var schedule: FrameSchedule
    private let frameClock: FrameClock?
    private var readLead: ReadLeadEstimator
    private var reportedSize: ScreenSize
    private let clock = ContinuousClock()
    /// The wake-up pipe is left unarmed while a booked frame waits for the cap (`FrameSchedule.mayIgnoreRequests`);
    /// that frame looks at what was asked meanwhile.
    private var ignoringRequests = false
    /// The last wait ended because its timeout (the next frame's due time) came, not an event.
    private var wokeForFrame = false
    /// With paced streams (`frameClock`), when the loop next looks at what was asked although nothing is
    /// booked: the next frame's due time after a frame drawn for a change. The streams hand in their
    /// prices once a frame, just before it, so after such a frame the next change is all but certain to
    /// come before that time; the wake-up pipe stays unarmed meanwhile, and the thread wakes once, at the
    /// due time, instead of once for the request and again for the frame (30 wake-ups a second fewer
    /// while a market streams). Only while changes come frame after frame (`lastChangeFrame` one interval
    /// before): after an isolated change, or one every other frame, the look would find nothing and cost a
    /// wake-up of its own. Nil: the pipe is armed, or a booked frame will look.
    private var lookAt: ContinuousClock.Instant?
    /// When the last frame drawn for a change counted from.
    private var lastChangeFrame: ContinuousClock.Instant?

    init(screen: CursesScreen, wakeUp: WakeUpSignal, signalReadEnd: Int32, options: TerminalSessionOptions, callbacks: Callbacks) {
        self.screen = screen
        self.wakeUp = wakeUp
        self.signalReadEnd = signalReadEnd
        self.callbacks = callbacks
        if let frameClock = options.frameClock {
            self.schedule = FrameSchedule(minimumInterval: frameClock.frameInterval, idleInterval: options.idleRedrawInterval, alignsTimedRedraws: true)
        } else {
            self.schedule = FrameSchedule(maxFramesPerSecond: options.maxFramesPerSecond, idleInterval: options.idleRedrawInterval)
        }
        self.frameClock = options.frameClock
        readLead = ReadLeadEstimator(
            initial: options.frameClock?.lead ?? .milliseconds(5),
            maximum: min(.milliseconds(10), (options.frameClock?.frameInterval ?? .milliseconds(33)) / 2),
            frameInterval: options.frameClock?.frameInterval ?? .milliseconds(33))
        self.reportedSize = screen.size
    }

    /// Runs until a quit signal, `stop()`, or the terminal going away. The caller closes the screen.
    func run() -> TerminalStopReason {
        callbacks.sizeChanged(reportedSize)
        while true {
            if callbacks.stopRequested() { return .stopped }
            if !ownsTerminal, CursesScreen.isForeground {
                takeTerminalBack()
            }
            if ignoringRequests, !ownsTerminal {
                listenToRequests()
            }
            if let due = lookAt, ownsTerminal, clock.now >= due {
                // The frame after a change: what the streams handed in meanwhile is booked now, or,
                // when nothing came, the pipe is armed again for whatever comes next.
                lookAt = nil
                takeRequests()
                if !schedule.hasBookedRedraw { listenToRequests() }
            }
            if ownsTerminal, schedule.isDue(at: clock.now) {
                // What was asked while the frame waited goes into it. With paced streams the pipe stays
                // unarmed through the next frame interval when this frame is for a change (`lookAt`).
                let paced = frameClock != nil
                if ignoringRequests { paced ? takeRequests() : listenToRequests() }
                let forChange = schedule.needsDisplay
                let size = screen.size
                let frameTime = schedule.frameTime(startingAt: clock.now, wokeForIt: wokeForFrame)
                wokeForFrame = false
                let changed = screen.draw(callbacks.frame(size, Date()))
                schedule.didDraw(at: frameTime, changedTerminal: changed)
                if let frameClock, let lastFrame = schedule.lastFrame {
                    readLead.frameDrawn(at: lastFrame)
                    frameClock.setLead(readLead.lead)
                    frameClock.frameDrawn(at: lastFrame)
                }
                if paced {
                    let streaming = forChange && lastChangeFrame.map { frameTime - $0 < schedule.minimumInterval * 3 / 2 } == true
                    if forChange { lastChangeFrame = frameTime }
                    if streaming {
                        wakeUp.disarm()
                        ignoringRequests = true
                        lookAt = frameTime + schedule.minimumInterval
                    } else if ignoringRequests {
                        listenToRequests()
                    }
                }
                continue
            }

#if !os(Linux)
            if ownsTerminal, let fraction = schedule.finalFraction(at: clock.now) {
                // Under a millisecond: input that comes meanwhile waits at most that long.
                Self.sleep(fraction)
                wokeForFrame = true
                continue
            }
#endif

            var fds = [
                pollfd(fd: wakeUp.readEnd, events: Int16(POLLIN), revents: 0),
                pollfd(fd: signalReadEnd, events: Int16(POLLIN), revents: 0),
            ]
            // In the background, stdin belongs to the shell; `fg` sends SIGCONT, and a slow re-check
            // covers a foreground change that comes without one.
            if ownsTerminal {
                fds.append(pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0))
            }
            let ready = wait(&fds)
            // The background re-check times out too, but no frame is due then.
            wokeForFrame = ready == 0 && ownsTerminal
            if ready < 0 {
                if errno == EINTR { continue }
                return .signal(SIGHUP)
            }
            if ready == 0 { continue }

            if fds[1].revents & Int16(POLLIN) != 0, let reason = handleSignals() {
                return reason
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                // Drained before the requests are taken: a request after the look is either seen by the
                // booked frame's look, or, once re-armed, signalled again.
                wakeUp.drain()
                takeRequests()
                if ownsTerminal, schedule.mayIgnoreRequests(at: clock.now) {
                    ignoringRequests = true
                } else {
                    listenToRequests()
                }
            }
            guard fds.count > 2 else { continue }
            if fds[2].revents & Int16(POLLIN) != 0 {
                handleInput()
            } else if fds[2].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                // The terminal is gone (window closed without SIGHUP reaching us): nothing to draw on.
                return .signal(SIGHUP)
            }
        }
    }

    private static let backgroundRecheckMilliseconds: Int32 = 500

    /// Arms the wake-up pipe again, then takes what was asked while it was not armed.
    private func listenToRequests() {
        ignoringRequests = false
        lookAt = nil
        wakeUp.rearm()
        takeRequests()
    }

    private func takeRequests() {
        let requests = callbacks.takeRedrawRequests()
        if requests.display {
            // How long after their slot the paced reads' prices were handed over sets the next frames' lead.
            if let slot = frameClock?.currentSlot, let asked = requests.lastDisplayRequest { readLead.heard(at: asked, slot: slot) }
            schedule.setNeedsDisplay()
        }
        if requests.timed { schedule.setNeedsTimedRedraw(at: clock.now) }
        if callbacks.takeBellRequest(), ownsTerminal { screen.ringBell() }
    }

    /// Sleeps until input, a signal, a wake-up or the next frame. On Linux ppoll(2) waits to the
    /// nanosecond; poll(2) elsewhere, in whole milliseconds rounded down, with the last fraction slept
    /// before (`FrameSchedule.finalFraction`).
    private func wait(_ fds: inout [pollfd]) -> Int32 {
        guard ownsTerminal else { return poll(&fds, nfds_t(fds.count), Self.backgroundRecheckMilliseconds) }
#if os(Linux)
        let now = clock.now
        guard let next = [schedule.nextFrame, lookAt].compactMap({ $0 }).min() else { return cb_ppoll(&fds, nfds_t(fds.count), nil, nil) }
        var timeout = now.duration(to: max(now, next)).timespecValue
        return cb_ppoll(&fds, nfds_t(fds.count), &timeout, nil)
#else
        let now = clock.now
        var timeout = schedule.pollTimeout(at: now)
        if let lookAt {
            // Rounded up: rounded down, the loop would poll with 0 for the last fraction of a millisecond.
            let milliseconds = Int32(clamping: (now.duration(to: max(now, lookAt)).wholeNanoseconds + 999_999) / 1_000_000)
            timeout = timeout < 0 ? milliseconds : min(timeout, milliseconds)
        }
        return poll(&fds, nfds_t(fds.count), timeout)
#endif
    }

#if !os(Linux)
    private static func sleep(_ duration: Duration) {
        var request = duration.timespecValue
        _ = nanosleep(&request, nil)
    }
#endif

    /// False while the process runs in the background (continued with `bg`, or kill -STOP / -CONT, which
    /// leaves a job in the background): the terminal is not touched until we are in the foreground.
    private var ownsTerminal = true

    private func takeTerminalBack() {
        ownsTerminal = true
        screen.resume()
        adoptTerminalSize(forceRedraw: true)
    }

    /// Handles every signal number the handlers queued; returns a reason when one asks to quit.
    private func handleSignals() -> TerminalStopReason? {
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let count = read(signalReadEnd, &bytes, bytes.count)
            guard count > 0 else { return nil }
            for byte in bytes[0..<count] {
                let signal = Int32(byte)
                switch signal {
                case SIGINT, SIGTERM, SIGHUP:
                    return .signal(signal)
                case SIGTSTP:
                    guard ownsTerminal else {
                        // `kill -TSTP` while in the background: curses is already out of the way.
                        TerminalSignals.stopProcess()
                        break
                    }
                    screen.suspend()
                    ownsTerminal = false
                    if CursesScreen.isForeground { takeTerminalBack() }
                case SIGCONT:
                    if CursesScreen.isForeground {
                        takeTerminalBack()
                    } else {
                        ownsTerminal = false
                    }
                case SIGWINCH:
                    if ownsTerminal { adoptTerminalSize(forceRedraw: false) }
                default:
                    break
                }
            }
        }
    }

    private func handleInput() {
        for input in screen.readInput() {
            guard let key = CursesKeyDecoder.decode(input) else { continue }
            if key == .resize {
                adoptTerminalSize(forceRedraw: false)
            } else {
                callbacks.onKey(key)
            }
        }
    }

    /// SIGWINCH, KEY_RESIZE and resuming all end here: a changed size clears and redraws the whole
    /// screen and tells the app; `forceRedraw` does the clear and redraw even at the same size.
    private func adoptTerminalSize(forceRedraw: Bool) {
        let size = screen.adoptTerminalSize()
        let changed = size != reportedSize
        guard changed || forceRedraw else { return }
        screen.invalidate()
        schedule.setNeedsDisplay()
        if changed {
            reportedSize = size
            callbacks.sizeChanged(size)
            callbacks.onResize(size)
        }
    }
}
