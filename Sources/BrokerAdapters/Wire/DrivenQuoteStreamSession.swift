import Domain
import Locking

/// What a task-driven session's methods reach: the state behind the stream, shared with the task.
protocol DrivenQuoteStreamConnection: Sendable {
    func subscribe(_ symbols: Set<String>)
    func unsubscribe(_ symbols: Set<String>)
    /// Finishes the stream; the driving task stops at its next step.
    func close()
}

/// A `QuoteStreamSession` run by one task (the demo market's ticker, the polling loop): the events
/// stream and the task's lifetime. A reader that stops listening (its task cancelled, the stream
/// dropped), `close` and the session's release all stop the task; `close` returns once it has stopped,
/// so nothing is yielded or requested after it returns.
final class DrivenQuoteStreamSession<Connection: DrivenQuoteStreamConnection>: QuoteStreamSession {
    let events: QuoteEvents
    private let connection: Connection
    private let driver: Task<Void, Never>

    /// `connect` makes the connection over the stream's continuation; `drive` then runs in the task until
    /// the stream is over or the task is cancelled.
    init(
        connect: (QuoteEvents.Continuation) -> Connection,
        drive: @escaping @Sendable (Connection) async -> Void
    ) {
        let (events, continuation) = QuoteEvents.makeStream()
        let connection = connect(continuation)
        let driver = Task.preferred { await drive(connection) }
        continuation.onTermination = { _ in driver.cancel() }
        self.events = events
        self.connection = connection
        self.driver = driver
    }

    deinit {
        driver.cancel()
    }

    func subscribe(_ symbols: Set<String>) async {
        connection.subscribe(symbols)
    }

    func unsubscribe(_ symbols: Set<String>) async {
        connection.unsubscribe(symbols)
    }

    func close() async {
        connection.close()
        driver.cancel()
        await driver.value
    }
}
