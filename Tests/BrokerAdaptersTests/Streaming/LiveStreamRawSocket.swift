import Foundation
import Networking
import TestSupport

/// A bare WebSocket from the real client to a stream fixture server, for brokers whose stream service is
/// not written yet: the test speaks the protocol itself and reads each message with a deadline.
final class LiveStreamRawSocket: Sendable {
    enum Received: Sendable, Hashable {
        case message(WebSocketMessage)
        case ended(String)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let connection: any WebSocketConnection
    private let inbox = StreamSessionTestInbox<Received>()
    private let reader: Task<Void, Never>

    init(_ url: URL) async throws {
        connection = try await LiveWebSocketConnector().connect(to: url, headers: [:], secretNames: ["token"])
        let (connection, inbox) = (connection, inbox)
        reader = Task {
            do {
                for try await message in connection.messages { inbox.put(.message(message)) }
                inbox.put(.ended("finished"))
            } catch {
                inbox.put(.ended("\(error)"))
            }
            inbox.finish()
        }
    }

    deinit {
        reader.cancel()
    }

    func send(_ text: String) async throws {
        try await connection.send(.text(text))
    }

    func close() async {
        await connection.close(code: 1000, reason: "")
    }

    /// The next text message; throws when the connection ended or nothing came in time.
    func nextText(timeout: Duration = .seconds(3)) async throws -> String {
        switch try await inbox.next(timeout: timeout) {
        case .message(.text(let text)): return text
        case .message(.binary): throw Failure(description: "a binary message")
        case .ended(let reason): throw Failure(description: "the connection ended: \(reason)")
        case nil: throw Failure(description: "the connection ended")
        }
    }

    /// The next text message as a JSON object.
    func nextObject(timeout: Duration = .seconds(3)) async throws -> [String: Any] {
        let text = try await nextText(timeout: timeout)
        guard let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            throw Failure(description: "not a JSON object: \(text)")
        }
        return object
    }

    /// How the connection ended, skipping messages still arriving; nil when it did not end within
    /// `timeout` (scaled by `TestTime`). The wait ends with the connection, so the limit costs nothing
    /// when it passes: it is generous because a loaded machine (the parallel suite on two cores beside
    /// other work) once took over 2 s to drain the stream's backlog and see the end.
    func end(timeout: Duration = .seconds(15)) async throws -> String? {
        let deadline = ContinuousClock.now + TestTime.scaled(timeout)
        while ContinuousClock.now < deadline {
            switch try await inbox.next(until: deadline) {
            case .message: continue
            case .ended(let reason): return reason
            case nil: return "finished"
            }
        }
        return nil
    }
}
