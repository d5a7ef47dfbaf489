import Domain
import Locking

/// One open upstream session with the two tasks that talk to it: a reader that feeds its events to
/// the hub (on the hub's own executor), and a commander that runs subscribe, unsubscribe and close
/// strictly in the order the hub asked, without the hub awaiting the broker.
final class UpstreamConnection: Sendable {
    enum Command: Sendable {
        case subscribe(Set<String>)
        case unsubscribe(Set<String>)
        case close
    }

    let id: HubStateMachine.UpstreamID
    private let commands: AsyncStream<Command>.Continuation
    private let commander: Task<Void, Never>
    private let reader: Task<Void, Never>

    /// `read` consumes the session's events until they end; it runs on the hub, so each event
    /// reaches the state machine without a hop from a reader task to the hub and back.
    init(
        id: HubStateMachine.UpstreamID,
        session: any QuoteStreamSession,
        read: @escaping @Sendable (QuoteEvents) async -> Void
    ) {
        self.id = id
        let (stream, commands) = AsyncStream<Command>.makeStream()
        self.commands = commands
        commander = Task.preferred {
            for await command in stream {
                switch command {
                case .subscribe(let symbols): await session.subscribe(symbols)
                case .unsubscribe(let symbols): await session.unsubscribe(symbols)
                case .close:
                    await session.close()
                    return
                }
            }
        }
        reader = Task.preferred { await read(session.events) }
    }

    deinit {
        close()
    }

    func send(_ command: Command) {
        commands.yield(command)
    }

    /// Closes the session after the commands already sent; events stop being read at once.
    func close() {
        reader.cancel()
        commands.yield(.close)
        commands.finish()
    }

    /// Returns once the session's `close()` has returned.
    func waitUntilClosed() async {
        await commander.value
    }
}
