import Foundation
import Locking
import TestSupport

/// Reads an async stream to its end on a task of its own, keeping every element, so a test can wait
/// for what it expects to arrive: `await recorder.wait(for:until:)` returns as soon as the elements
/// satisfy the condition. The bound only fails the test (naming what did arrive), it never paces it: no
/// test sleeps to let something happen.
final class StreamRecorder<Element: Sendable>: Sendable {
    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }

    private let storage: Storage
    private let reader: Task<Void, Never>

    init<Stream: AsyncSequence & Sendable>(_ stream: Stream) where Stream.Element == Element, Stream.Failure == Never {
        let storage = Storage()
        self.storage = storage
        reader = Task {
            for await element in stream { storage.append(element) }
            storage.end()
        }
    }

    deinit {
        reader.cancel()
    }

    var elements: [Element] { storage.elements }

    /// Waits for the stream to end, at most `timeout` (scaled by `TestTime`, as every wait here); returns everything it yielded.
    @discardableResult
    func waitForEnd(_ what: String = "the stream to end", timeout: Duration = .seconds(20)) async throws -> [Element] {
        try await wait(for: what, timeout: timeout, untilEnded: true) { _ in true }
    }

    /// Waits until `condition` holds for the elements so far, at most `timeout`; throws `TimedOut`
    /// otherwise, or when the stream ended without it holding.
    @discardableResult
    func wait(for what: String, timeout: Duration = .seconds(20), until condition: @escaping @Sendable ([Element]) -> Bool) async throws -> [Element] {
        try await wait(for: what, timeout: timeout, untilEnded: false, condition)
    }

    private func wait(
        for what: String, timeout: Duration, untilEnded: Bool, _ condition: @escaping @Sendable ([Element]) -> Bool
    ) async throws -> [Element] {
        let timeout = TestTime.scaled(timeout)
        let id = storage.newWaiterID()
        let storage = storage
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { storage.resume(id, with: false) }
        }
        defer { timer.cancel() }
        let met = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            storage.add(id: id, condition: { elements, ended in (ended || !untilEnded) && condition(elements) }, continuation: continuation)
        }
        let elements = storage.elements
        guard met else {
            throw TimedOut(description: "waited up to \(timeout) for \(what); got \(elements.count): \(String(describing: elements.suffix(6)))")
        }
        return elements
    }

    private final class Storage: Sendable {
        private struct Waiter {
            let id: Int
            let condition: @Sendable ([Element], Bool) -> Bool
            let continuation: CheckedContinuation<Bool, Never>
        }

        private struct State {
            var elements: [Element] = []
            var ended = false
            var waiters: [Waiter] = []
            var nextID = 0
            /// Timers that fired before their waiter was added.
            var expired: Set<Int> = []
        }

        private let state = Locked(State())

        var elements: [Element] { state.withLock { $0.elements } }

        func newWaiterID() -> Int {
            state.withLock { state in
                defer { state.nextID += 1 }
                return state.nextID
            }
        }

        func add(id: Int, condition: @escaping @Sendable ([Element], Bool) -> Bool, continuation: CheckedContinuation<Bool, Never>) {
            let verdict: Bool? = state.withLock { state in
                if condition(state.elements, state.ended) { return true }
                if state.ended || state.expired.remove(id) != nil { return false }
                state.waiters.append(Waiter(id: id, condition: condition, continuation: continuation))
                return nil
            }
            if let verdict { continuation.resume(returning: verdict) }
        }

        func append(_ element: Element) {
            let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
                state.elements.append(element)
                var ready: [CheckedContinuation<Bool, Never>] = []
                state.waiters.removeAll { waiter in
                    guard waiter.condition(state.elements, false) else { return false }
                    ready.append(waiter.continuation)
                    return true
                }
                return ready
            }
            for continuation in ready { continuation.resume(returning: true) }
        }

        func end() {
            let (waiters, elements) = state.withLock { state -> ([Waiter], [Element]) in
                state.ended = true
                defer { state.waiters.removeAll() }
                return (state.waiters, state.elements)
            }
            for waiter in waiters { waiter.continuation.resume(returning: waiter.condition(elements, true)) }
        }

        /// The timer's verdict for a waiter still waiting; nothing if it was answered already.
        func resume(_ id: Int, with verdict: Bool) {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                    state.expired.insert(id)
                    return nil
                }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: verdict)
        }
    }
}
