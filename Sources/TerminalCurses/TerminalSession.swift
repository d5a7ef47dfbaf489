import CNcursesw
import Dispatch
import Foundation
import Locking
import Synchronization
import TerminalKit

/// Owns curses on one dedicated thread: draws frames and reads keys.
///
/// Curses is not thread-safe, so one `Thread` makes every curses call, from `newterm` to `endwin`.
/// Other threads and actors only ever write a byte to a wake-up pipe (`setNeedsDisplay`, `stop`), and
/// signal handlers only write the signal number to a self-pipe; the thread sleeps in poll(2) on both
/// pipes and stdin.
public final class TerminalSession: Sendable {
    private let options: TerminalSessionOptions
    private let frame: @Sendable (ScreenSize, Date) -> ScreenBuffer
    private let onKey: @Sendable (KeyPress) -> Void
    private let onResize: @Sendable (ScreenSize) -> Void
    private let wakeUp: Result<WakeUpSignal, TerminalError>
    private let stopRequested = Atomic<Bool>(false)
    private let bellRequested = Atomic<Bool>(false)
    private let displayRequested = Atomic<Bool>(false)
    private let timedRedrawRequested = Atomic<Bool>(false)
    /// When the latest `setNeedsDisplay` was made. The UI thread may read the requests a while after they
    /// were made (see `WakeUpSignal`), and the read lead is learnt from when the prices were handed over.
    private let lastDisplayRequestTime = AtomicInstant()
    private let lifecycle: Locked<Lifecycle>
    /// Entered when the UI thread starts, left when it has restored the terminal.
    private let uiThreadRunning = DispatchGroup()

    private struct Lifecycle: ~Copyable {
        enum Phase {
            case idle
            case starting
            case running(uiThread: pthread_t)
            case ended(TerminalStopReason)
        }

        var phase: Phase = .idle
        var size: ScreenSize
        var colorDepth = ColorDepth.basic
        var waiters: [Int: CheckedContinuation<TerminalStopReason, Never>] = [:]
        var nextWaiterID = 0
    }

    /// `frame` is called ON THE UI THREAD to produce the current frame for a size and time (the app
    /// renders its latest view state there; it must be fast and must not block). `onKey` is called on
    /// the UI thread for each decoded key (the app forwards it to an actor). `onResize` is called on
    /// the UI thread with the new size.
    public init(
        options: TerminalSessionOptions,
        frame: @escaping @Sendable (ScreenSize, Date) -> ScreenBuffer,
        onKey: @escaping @Sendable (KeyPress) -> Void,
        onResize: @escaping @Sendable (ScreenSize) -> Void
    ) {
        self.options = options
        self.frame = frame
        self.onKey = onKey
        self.onResize = onResize
        do throws(TerminalError) {
            wakeUp = .success(try WakeUpSignal())
        } catch {
            wakeUp = .failure(error)
        }
        var rows: Int32 = 0
        var columns: Int32 = 0
        let size = cb_window_size(STDOUT_FILENO, &rows, &columns) == 0
            ? ScreenSize(columns: Int(columns), rows: Int(rows))
            : ScreenSize(columns: 80, rows: 24)
        lifecycle = Locked(Lifecycle(size: size))
    }

    /// The terminal's size: as curses last saw it while running, else as the kernel reports it.
    public var size: ScreenSize {
        lifecycle.withLock { $0.size }
    }

    /// How many colors the terminal shows, known once `start()` has returned (`.basic` before).
    public var colorDepth: ColorDepth {
        lifecycle.withLock { $0.colorDepth }
    }

    /// Initialises curses and starts the UI thread; returns once the terminal is taken over. Throws if
    /// stdin or stdout is not a terminal or curses cannot use the terminal (TERM unset or unknown, or a
    /// type that cannot move the cursor, such as dumb).
    public func start() throws(TerminalError) {
        let claimed = lifecycle.withLock { state in
            guard case .idle = state.phase else { return false }
            state.phase = .starting
            return true
        }
        guard claimed else { throw .alreadyStarted }

        let wakeUp: WakeUpSignal
        let signalReadEnd: Int32
        do throws(TerminalError) {
            let term = ProcessInfo.processInfo.environment["TERM"]
            guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else { throw .notATerminal(term: term) }
            // Before curses writes anything: on TERM=dumb it would draw one line and leave it behind.
            if let refusal = TerminalCapabilities.refusal(term: term, capabilities: term.flatMap(TerminalCapabilities.lookUp)) {
                throw refusal
            }
            wakeUp = try self.wakeUp.get()
            signalReadEnd = try TerminalSignals.install()
        } catch {
            lifecycle.withLock { $0.phase = .idle }
            throw error
        }

        let startup = DispatchSemaphore(value: 0)
        let startupError = Locked<TerminalError?>(nil)
        uiThreadRunning.enter()
        let thread = Thread { [self] in
            KernelThreadName.setForCurrentThread("terminal ui")
            let screen: CursesScreen
            do throws(TerminalError) {
                screen = try CursesScreen(color: options.color, mouse: options.mouse)
            } catch {
                TerminalSignals.uninstall()
                startupError.withLock { $0 = error }
                lifecycle.withLock { $0.phase = .idle }
                uiThreadRunning.leave()
                startup.signal()
                return
            }
            lifecycle.withLock {
                $0.phase = .running(uiThread: pthread_self())
                $0.colorDepth = screen.colorDepth
            }
            startup.signal()
            let reason = runLoop(screen: screen, wakeUp: wakeUp, signalReadEnd: signalReadEnd)
            screen.close()
            TerminalSignals.uninstall()
            finish(reason)
            uiThreadRunning.leave()
        }
        thread.name = "commonbroker-ui"
        thread.start()
        startup.wait()
        if let error = startupError.withLock({ $0 }) { throw error }
    }

    private func runLoop(screen: CursesScreen, wakeUp: WakeUpSignal, signalReadEnd: Int32) -> TerminalStopReason {
        let callbacks = CursesEventLoop.Callbacks(
            frame: frame,
            onKey: onKey,
            onResize: onResize,
            sizeChanged: { [self] size in lifecycle.withLock { $0.size = size } },
            stopRequested: { [self] in stopRequested.load(ordering: .acquiring) },
            takeBellRequest: { [self] in bellRequested.exchange(false, ordering: .acquiringAndReleasing) },
            takeRedrawRequests: { [self] in
                CursesEventLoop.RedrawRequests(
                    display: displayRequested.exchange(false, ordering: .acquiringAndReleasing),
                    timed: timedRedrawRequested.exchange(false, ordering: .acquiringAndReleasing),
                    lastDisplayRequest: lastDisplayRequest)
            }
        )
        let loop = CursesEventLoop(screen: screen, wakeUp: wakeUp, signalReadEnd: signalReadEnd, options: options, callbacks: callbacks)
        return loop.run()
    }

    private func finish(_ reason: TerminalStopReason) {
        let waiters = lifecycle.withLock { state in
            state.phase = .ended(reason)
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            waiter.resume(returning: reason)
        }
    }

    /// Thread-safe, cheap, callable from any thread or actor: asks for a redraw. Frames are capped at
    /// `maxFramesPerSecond`; an identical frame writes nothing to the terminal.
    public func setNeedsDisplay() {
        lastDisplayRequestTime.store(.now)
        displayRequested.store(true, ordering: .releasing)
        if case .success(let wakeUp) = wakeUp { wakeUp.signal() }
    }

    private var lastDisplayRequest: ContinuousClock.Instant? { lastDisplayRequestTime.load() }

    /// Thread-safe: asks for a redraw because time passed, not because anything changed (a message that
    /// fades after a while). Drawn like `setNeedsDisplay`'s, but a frame that then writes nothing does not
    /// count for the frame cap, so the next change is not held back by it.
    public func setNeedsTimedRedraw() {
        timedRedrawRequested.store(true, ordering: .releasing)
        if case .success(let wakeUp) = wakeUp { wakeUp.signal() }
    }

    /// Thread-safe: rings the terminal bell (curses `beep`, which writes the terminal's `bel`, BEL for
    /// most) from the UI thread at its next wake-up. Several requests before then ring once.
    public func ringBell() {
        bellRequested.store(true, ordering: .releasing)
        setNeedsDisplay()
        wakeUpNow()
    }

    /// Wakes the UI thread even while it lets requests wait for a booked frame (`WakeUpSignal.signalNow`).
    private func wakeUpNow() {
        if case .success(let wakeUp) = wakeUp { wakeUp.signalNow() }
    }

    /// Stops the UI thread and restores the terminal (endwin). Idempotent and callable from any thread;
    /// blocks until the UI thread has ended, except when called on the UI thread itself (from `onKey`),
    /// where it returns at once and the loop ends right after the callback.
    public func stop() {
        enum Next { case wait, returnNow, finishUnstarted }
        let next = lifecycle.withLock { state -> Next in
            switch state.phase {
            case .idle:
                return .finishUnstarted
            case .starting:
                return .wait
            case .running(let uiThread):
                return pthread_equal(uiThread, pthread_self()) != 0 ? .returnNow : .wait
            case .ended:
                return .returnNow
            }
        }
        switch next {
        case .finishUnstarted:
            finish(.stopped)
        case .returnNow:
            stopRequested.store(true, ordering: .releasing)
            setNeedsDisplay()
            wakeUpNow()
        case .wait:
            stopRequested.store(true, ordering: .releasing)
            setNeedsDisplay()
            wakeUpNow()
            uiThreadRunning.wait()
        }
    }

    /// Suspends until the session ends because of a quit signal (SIGINT/SIGTERM/SIGHUP) or `stop()`;
    /// returns why. By then the terminal is restored. A cancelled wait returns `.stopped` at once
    /// without stopping the session, so a task group racing it against the app's work can finish.
    public func waitUntilStopped() async -> TerminalStopReason {
        let id = lifecycle.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ended = lifecycle.withLock { state -> TerminalStopReason? in
                    if case .ended(let reason) = state.phase { return reason }
                    if Task.isCancelled { return .stopped }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ended { continuation.resume(returning: ended) }
            }
        } onCancel: {
            lifecycle.withLock { $0.waiters.removeValue(forKey: id) }?.resume(returning: .stopped)
        }
    }
}
