import Networking
import TestSupport

/// Reads a connection's `messages` against a deadline (scaled by `TestTime`), so a client that hangs fails
/// its test instead of stalling the run. On a timeout the read is cancelled, which (by the connection's
/// contract) closes it.
struct WebSocketMessageReader {
    /// How `messages` ended: cleanly, or with the client's error.
    enum End: Equatable, CustomStringConvertible {
        case finished
        case failed(WebSocketError)

        var description: String {
            switch self {
            case .finished: "finished"
            case .failed(let error): "failed: \(error)"
            }
        }

        var error: WebSocketError? {
            if case .failed(let error) = self { error } else { nil }
        }
    }

    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    struct UnexpectedError: Error, CustomStringConvertible {
        let description: String
    }

    let connection: any WebSocketConnection

    /// The next message; `End` is thrown when `messages` ends first.
    func next(within timeout: Duration = .seconds(5)) async throws -> WebSocketMessage {
        switch try await read(within: timeout, stopAfterFirstMessage: true) {
        case (let messages, nil): return messages[0]
        case (_, let end?): throw UnexpectedError(description: "expected a message, but messages \(end)")
        }
    }

    /// Reads until `messages` ends: the messages that came before, and how it ended.
    func end(within timeout: Duration = .seconds(5)) async throws -> (messages: [WebSocketMessage], end: End) {
        let (messages, end) = try await read(within: timeout, stopAfterFirstMessage: false)
        return (messages, end!)
    }

    private func read(within timeout: Duration, stopAfterFirstMessage: Bool) async throws -> ([WebSocketMessage], End?) {
        let timeout = TestTime.scaled(timeout)
        let messages = connection.messages
        return try await withThrowingTaskGroup(of: ([WebSocketMessage], End?).self) { group in
            group.addTask {
                var received: [WebSocketMessage] = []
                do {
                    for try await message in messages {
                        received.append(message)
                        if stopAfterFirstMessage { return (received, nil) }
                    }
                    if Task.isCancelled { return (received, nil) }
                    return (received, .finished)
                } catch let error as WebSocketError {
                    return (received, .failed(error))
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw Timeout(description: "messages neither ended nor yielded within \(timeout)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}
