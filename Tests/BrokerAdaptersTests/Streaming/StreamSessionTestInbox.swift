import Foundation
import Locking
import TestSupport

/// Items handed from a producer (a session's events, a socket's sent messages) to a test, which awaits
/// them with a deadline so that a bug fails the test instead of hanging the run. Shared by the Polygon and
/// Alpaca stream tests.
final class StreamSessionTestInbox<Element: Sendable>: Sendable {
    struct TimedOut: Error, CustomStringConvertible {
        let waited: Duration
        var description: String { "nothing arrived within \(waited)" }
    }

    private struct State {
        var items: [Element] = []
        var finished = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    func put(_ item: Element) {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.items.append(item)
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    func finish() {
        state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }?.resume()
    }

    /// Everything received and not taken yet.
    var pending: [Element] {
        state.withLock { $0.items }
    }

    /// The next item; nil once finished and drained. Throws `TimedOut` after `timeout` (scaled by `TestTime`).
    func next(timeout: Duration = .seconds(30)) async throws -> Element? {
        try await next(until: ContinuousClock.now + TestTime.scaled(timeout))
    }

    /// The next item; nil once finished and drained. Throws `TimedOut` at `deadline`.
    func next(until deadline: ContinuousClock.Instant) async throws -> Element? {
        let started = ContinuousClock.now
        while true {
            let outcome = state.withLock { state -> Element?? in
                if !state.items.isEmpty { return .some(state.items.removeFirst()) }
                return state.finished ? .some(nil) : nil
            }
            if let outcome { return outcome }
            guard ContinuousClock.now < deadline else { throw TimedOut(waited: ContinuousClock.now - started) }
            await waitForChange(until: deadline)
        }
    }

    /// Returns after the next `put` or `finish`, or at `deadline`. A wake-up left over from an earlier
    /// wait only makes `next` look again.
    private func waitForChange(until deadline: ContinuousClock.Instant) async {
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            self?.state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }?.resume()
        }
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                if !state.items.isEmpty || state.finished { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
        timer.cancel()
    }
}
