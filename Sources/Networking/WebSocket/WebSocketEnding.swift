/// How a connection's `messages` ends, decided in this one place.
///
/// The I/O thread can meet more than one reason for the end at about the same time. The usual case: a
/// broker that rejects a token sends a close frame with its code and reason, then resets the
/// connection; a message we write in the meantime fails with EPIPE or ECONNRESET before the loop has
/// read the close frame, which is already waiting in the kernel's buffer. What the consumer hears
/// decides what it does next, and the two say different things: the peer's close code (or a protocol
/// error the reader found) is the peer's own word and may be permanent (auth failed: stop retrying),
/// while a failed read or write only says the connection is gone (reconnect). So the peer's word
/// outranks our side's failures whichever was seen first; among equals the first stands.
///
/// The peer's word is reported at once, since nothing can outrank it. Our side's failures are held
/// until the connection is torn down, after the loop has read what had already arrived, so a close
/// frame behind them can still take their place. Once reported, the outcome never changes.
struct WebSocketEnding: Equatable {
    enum Cause: Equatable {
        /// The peer's close frame: no code (or 1000) is a clean end, any other code an error.
        case peerClosed(code: UInt16?, reason: String)
        /// The reader found the peer breaking RFC 6455.
        case protocolViolation(String)
        /// Our side's view: a failed read or write, a heartbeat timeout, a failed upgrade.
        case failed(WebSocketError)

        /// The peer's word (2) over our side's failures (1).
        fileprivate var rank: Int {
            switch self {
            case .peerClosed, .protocolViolation: 2
            case .failed: 1
            }
        }

        fileprivate var outcome: Outcome {
            switch self {
            case .peerClosed(let code?, let reason) where code != WebSocketCloseFrame.normalClosure: .failed(.closed(code: code, reason: reason))
            case .peerClosed: .finished
            case .protocolViolation(let detail): .failed(.protocolViolation(detail))
            case .failed(let error): .failed(error)
            }
        }
    }

    enum Outcome: Equatable {
        case finished
        case failed(WebSocketError)
    }

    private(set) var cause: Cause?
    /// The outcome has been handed to the consumer.
    private(set) var isReported = false

    /// Keeps `cause` if it outranks what was recorded before. Returns the outcome to report now: only
    /// the peer's word, which nothing can outrank, and only once.
    mutating func record(_ cause: Cause) -> Outcome? {
        guard !isReported else { return nil }
        if self.cause.map({ cause.rank > $0.rank }) ?? true { self.cause = cause }
        guard cause.rank == 2 else { return nil }
        isReported = true
        return cause.outcome
    }

    /// The connection is gone: the outcome to report (a clean end when nothing went wrong), unless it
    /// was reported already.
    mutating func conclude() -> Outcome? {
        guard !isReported else { return nil }
        isReported = true
        return cause?.outcome ?? .finished
    }
}
