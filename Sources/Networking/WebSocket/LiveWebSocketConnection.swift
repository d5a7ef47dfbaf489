import Foundation

/// A WebSocket over POSIX sockets (and OpenSSL for wss://), made by `LiveWebSocketConnector`.
///
/// Concurrency model: one dedicated I/O thread per connection, which owns the socket, the SSL object,
/// the frame codec and the message assembler outright (`WebSocketIOLoop`). It sleeps in a single poll()
/// on the socket and a wake-up pipe, with a timeout only when a deadline is pending (the idle ping, the
/// pong timeout, the close handshake), so a quiet connection costs no CPU and no timer spins. Decoded
/// messages go into `messages` (`WebSocketMessages`). Other threads never touch the socket:
/// `send` and `close` append to a mutex-protected request queue (`WebSocketIOChannel`) and write one
/// byte to the pipe; the I/O thread performs the writes in order, which serializes them without holding
/// a lock across I/O, and keeps SSL, which must not be used from two threads at once, on one thread.
///
/// Why a thread and not Swift concurrency or a shared event loop: blocking calls (getaddrinfo, poll)
/// would starve the cooperative pool, and with one thread per broker connection (a handful) a slow or
/// stalled broker can only ever delay itself. The cost is one mostly-sleeping thread per connection.
///
/// `messages` is unbounded: brokers decode each message as it comes and the hub conflates behind them,
/// so the buffer stays short; a consumer that stops reading entirely should cancel, which closes.
final class LiveWebSocketConnection: WebSocketConnection {
    struct Configuration: Sendable {
        var handshake: WebSocketHandshake
        var options: LiveWebSocketConnector.Options
        var secretNames: Set<String>
        var secretValues: [String]
        var maskingKeySource: @Sendable () -> WebSocketMaskingKey
    }

    let messages: WebSocketMessages
    private let configuration: Configuration
    private let channel: WebSocketIOChannel
    private let messageContinuation: WebSocketMessages.Continuation

    init(configuration: Configuration) throws(WebSocketError) {
        self.configuration = configuration
        let channel = WebSocketIOChannel(wakePipe: try WebSocketWakePipe())
        self.channel = channel
        (messages, messageContinuation) = WebSocketMessages.makeStream()
        // A consumer that stops listening (its task cancelled) no longer needs the connection.
        messageContinuation.onTermination = { termination in
            if case .cancelled = termination {
                channel.requestClose(WebSocketCloseFrame(code: WebSocketCloseFrame.goingAway), waiter: nil)
            }
        }
    }

    /// Starts the I/O thread and returns once the server has accepted the upgrade. Cancelling the
    /// calling task abandons the attempt (except during DNS, which cannot be interrupted).
    func open() async throws(WebSocketError) {
        let configuration = configuration
        let channel = channel
        let messageContinuation = messageContinuation
        let result: Result<Void, WebSocketError> = await IOLoopThread.start(
            named: "ws \(configuration.handshake.endpoint.host)", cancel: { channel.cancelConnect() }
        ) { established in
            WebSocketIOLoop(configuration: configuration, channel: channel, messages: messageContinuation).run(established: established)
        }
        try result.get()
    }

    func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        let frame: WebSocketFrame = switch message {
        case .text(let text): .text(text)
        case .binary(let bytes): .binary(bytes)
        }
        guard frame.payload.count <= configuration.options.maxFrameSize else {
            throw .protocolViolation("outgoing message of \(frame.payload.count) bytes exceeds the \(configuration.options.maxFrameSize)-byte limit")
        }
        let bytes = WebSocketFrameCodec.encode(frame, maskingKey: configuration.maskingKeySource())
        let channel = channel
        let result = await withCheckedContinuation { (completion: WebSocketIOChannel.Completion) in
            if !channel.enqueue(bytes, completion: completion) {
                completion.resume(returning: .failure(.network("connection closed")))
            }
        }
        try result.get()
    }

    func close(code: UInt16, reason: String) async {
        let frame = WebSocketCloseFrame(code: WebSocketCloseFrame.isSendable(code: code) ? code : WebSocketCloseFrame.normalClosure, reason: reason)
        let channel = channel
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            channel.requestClose(frame, waiter: waiter)
        }
    }
}
