import Domain

/// One open upstream session with the two tasks that talk to it: a reader that feeds its events to
/// the hub, and a commander that runs subscribe, unsubscribe and close strictly in the order the
/// hub asked, without the hub awaiting the broker.
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

    init(
        id: HubStateMachine.UpstreamID,
        session: any QuoteStreamSession,
        onEvent: @escaping @Sendable (QuoteEvent) async -> Void,
        onEnd: @escaping @Sendable (BrokerError?) async -> Void
    ) {
        self.id = id
        let (stream, commands) = AsyncStream<Command>.makeStream()
        self.commands = commands
        commander = Task {
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
        reader = Task {
            let end: BrokerError?
            do {
                for try await event in session.events { await onEvent(event) }
                end = nil
            } catch let error as BrokerError {
                end = error
            } catch {
                end = .network(String(describing: error))
            }
            // Cancelled means the hub closed this session itself; it needs no report.
            if !Task.isCancelled { await onEnd(end) }
        }
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
