import Locking

/// A queue from a producer (the connection's I/O thread, a watch's driver) to one consumer task, which
/// takes everything waiting in one batch.
///
/// It replaces an `AsyncStream` on the bus's hot path. A stream wakes its consumer once per element
/// and, its storage being generic code of the standard library, looks up generic metadata on every
/// `yield` and `next` (a tenth of the follower's CPU per quote, with its `Deque` a fifth more). Here a
/// consumer already awake takes a whole batch for one lock, a parked one is resumed once per batch,
/// and within this module the code is specialised for its element.
///
/// Like `AsyncStream.bufferingNewest`, a full mailbox drops its oldest element to make room, and says
/// so: for quotes the newest matter, and a watch that lost entries starts over.
final class NATSMailbox<Element: Sendable>: Sendable {
    typealias Push = NATSMailboxPush

    let limit: Int
    private let state: Locked<State>
    /// Runs once when the consumer's task is cancelled while it waits, or `cancel()` is called.
    private let onCancel: @Sendable () -> Void

    private enum Take {
        case batch([Element])
        case end
        case wait
    }

    private struct State: ~Copyable {
        var items: [Element] = []
        /// Elements before this index were dropped or taken; the array is reset on every take.
        var head = 0
        var waiter: UnsafeContinuation<Void, Never>?
        /// No more elements come: the consumer takes what waits, then its sequence ends.
        var isFinished = false
        /// The consumer went away: its sequence ends at once.
        var isCancelled = false

        var count: Int { items.count - head }
    }

    init(limit: Int = .max, onCancel: @escaping @Sendable () -> Void = {}) {
        self.limit = max(1, limit)
        self.onCancel = onCancel
        state = Locked(State())
    }

    @discardableResult
    func push(_ element: Element) -> Push {
        let (result, waiter) = state.withLock { state -> (Push, UnsafeContinuation<Void, Never>?) in
            guard !state.isFinished, !state.isCancelled else { return (.ended, nil) }
            state.items.append(element)
            var result = Push.enqueued(buffered: state.count)
            if state.count > limit {
                state.head += 1
                result = .droppedOldest
                // Dropping one at a time from the front would move the whole array each time.
                if state.head >= 1_024, state.head * 2 >= state.items.count {
                    state.items.removeFirst(state.head)
                    state.head = 0
                }
            }
            return (result, state.waiter.take())
        }
        waiter?.resume()
        return result
    }

    /// Queues `element` unless `cap` elements already wait (then `.refused`, and nothing is dropped):
    /// for a producer whose elements share a mailbox with others that must not be lost.
    func push(_ element: Element, refusingAt cap: Int) -> Push {
        let (result, waiter) = state.withLock { state -> (Push, UnsafeContinuation<Void, Never>?) in
            guard !state.isFinished, !state.isCancelled else { return (.ended, nil) }
            guard state.count < cap else { return (.refused, nil) }
            state.items.append(element)
            return (.enqueued(buffered: state.count), state.waiter.take())
        }
        waiter?.resume()
        return result
    }

    /// Ends the sequence once the consumer has taken what waits.
    func finish() {
        state.withLock { state in
            state.isFinished = true
            return state.waiter.take()
        }?.resume()
    }

    /// Ends the sequence at once, dropping what waits; runs `onCancel` the first time.
    func cancel() {
        let (waiter, isNews) = state.withLock { state in
            let isNews = !state.isCancelled
            state.isCancelled = true
            state.items = []
            state.head = 0
            return (state.waiter.take(), isNews)
        }
        waiter?.resume()
        if isNews { onCancel() }
    }

    /// Everything waiting, in order, parking while nothing does; nil once the mailbox is finished and
    /// drained, or cancelled. Runs on the caller's actor, so a consumer on an actor takes its batch
    /// without a hop. Cancelling the calling task cancels the mailbox.
    func nextBatch(isolation actor: isolated (any Actor)? = #isolation) async -> [Element]? {
        while true {
            let outcome = state.withLock { state -> Take in
                if state.isCancelled { return .end }
                if state.count > 0 {
                    let batch = state.head == 0 ? state.items : Array(state.items[state.head...])
                    state.items = []
                    state.head = 0
                    return .batch(batch)
                }
                return state.isFinished ? .end : .wait
            }
            switch outcome {
            case .batch(let batch): return batch
            case .end: return nil
            case .wait: break
            }
            let parked = await state.parkConsumer(isolation: actor, onCancel: { [self] in cancel() }) { state, continuation in
                guard state.count == 0, !state.isFinished, !state.isCancelled else { return false }
                state.waiter = continuation
                return true
            }
            if !parked { return nil }
        }
    }
}

/// What became of an element pushed into a `NATSMailbox`.
enum NATSMailboxPush: Equatable {
    /// Queued; `buffered` elements now wait.
    case enqueued(buffered: Int)
    /// Queued, and the oldest waiting element was dropped to make room.
    case droppedOldest
    /// Not queued: the mailbox held as many as the producer allows (`push(_:refusingAt:)`).
    case refused
    /// The consumer has gone or the mailbox was finished: nothing was queued.
    case ended
}
