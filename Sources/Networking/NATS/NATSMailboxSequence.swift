/// A `NATSMailbox` read one element at a time, for code that wants an ordinary `for await` (tests,
/// request/reply handlers). Hot paths take whole batches instead (`nextBatch`).
///
/// Cancelling the task that reads it ends it, as with an `AsyncStream`, and tells the mailbox's owner
/// (a subscription unsubscribes, a watch stops).
public struct NATSMailboxSequence<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let mailbox: NATSMailbox<Element>

    init(_ mailbox: NATSMailbox<Element>) {
        self.mailbox = mailbox
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(mailbox: mailbox)
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        private let mailbox: NATSMailbox<Element>
        private var batch: [Element] = []
        private var index = 0

        fileprivate init(mailbox: NATSMailbox<Element>) {
            self.mailbox = mailbox
        }

        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            if index == batch.count {
                guard let next = await mailbox.nextBatch(isolation: actor) else { return nil }
                batch = next
                index = 0
            }
            defer { index += 1 }
            return batch[index]
        }
    }
}
