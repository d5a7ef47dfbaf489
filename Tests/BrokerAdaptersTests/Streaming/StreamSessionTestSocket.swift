import Domain
import Foundation
import Locking
import Networking

/// A scripted WebSocket peer for stream-session tests: the test plays the server (`serverSends`,
/// `serverCloses`, `serverDrops`) and reads what the client sent, in order (`nextSent`). It is its own
/// connector and hands out one connection.
final class StreamSessionTestSocket: WebSocketConnector, WebSocketConnection, Sendable {
    let messages: WebSocketMessages
    private let server: WebSocketMessages.Continuation
    private let sent = StreamSessionTestInbox<String>()
    private let record = Locked(Record())
    private let connectError: WebSocketError?

    struct Record: Sendable {
        var url: URL?
        var headers: [String: String] = [:]
        var closeCode: UInt16?
        var sendError: WebSocketError?
    }

    /// `connectError`: `connect` fails with it instead.
    init(connectError: WebSocketError? = nil) {
        (messages, server) = WebSocketMessages.makeStream()
        self.connectError = connectError
    }

    var connectedURL: URL? { record.withLock { $0.url } }
    /// The close code the client sent, nil while it has not closed.
    var closeCode: UInt16? { record.withLock { $0.closeCode } }

    func connect(to url: URL, headers: [String: String], secretNames: Set<String>) async throws(WebSocketError) -> any WebSocketConnection {
        if let connectError { throw connectError }
        record.withLock {
            $0.url = url
            $0.headers = headers
        }
        return self
    }

    func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        guard case .text(let text) = message else {
            sent.put("<binary>")
            return
        }
        // A failing send is still read by `nextSent`: the test sees the attempt.
        sent.put(text)
        if let error = record.withLock({ $0.sendError }) { throw error }
    }

    func close(code: UInt16, reason: String) async {
        record.withLock { $0.closeCode = code }
        server.finish()
        sent.finish()
    }

    // MARK: The test's side

    func serverSends(_ text: String) {
        server.yield(.text(text))
    }

    /// Several text frames that the session takes in one read, as a paced read hands them over.
    func serverSends(together texts: [String]) {
        server.yield(contentsOf: texts.map { .text($0) })
    }

    func serverSendsBinary(_ bytes: [UInt8]) {
        server.yield(.binary(bytes))
    }

    /// A clean close from the server.
    func serverCloses() {
        server.finish()
    }

    /// The connection breaks.
    func serverDrops(_ error: WebSocketError) {
        server.finish(throwing: error)
    }

    /// Every send from now on fails with `error` (after `nextSent` has it), as on a connection that is
    /// going away.
    func sendsFail(with error: WebSocketError) {
        record.withLock { $0.sendError = error }
    }

    /// The next message the client sent; nil once it closed the connection and everything was read.
    func nextSent(timeout: Duration = .seconds(30)) async throws -> String? {
        try await sent.next(timeout: timeout)
    }

    /// Messages the client sent that the test has not read yet.
    var unreadSent: [String] { sent.pending }
}
