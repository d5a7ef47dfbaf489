/// What one non-blocking read or write on a transport did.
enum WebSocketTransportProgress: Equatable {
    case transferred(Int)
    /// Nothing moved; retry once the socket is readable (or writable: TLS may need to write in order
    /// to read, and to read in order to write).
    case wouldBlock(WebSocketTransportWait)
    /// The peer closed the stream cleanly (TCP FIN, or TLS close_notify).
    case closed
}

enum WebSocketTransportWait: Equatable {
    case readable
    case writable
}

/// A connected, non-blocking byte stream: plain TCP or TLS over it. Owned and used by one I/O thread
/// only, so implementations need no locking (and OpenSSL's SSL objects get none).
protocol WebSocketTransport: AnyObject {
    /// The socket, for poll().
    var descriptor: Int32 { get }
    /// True when input is already decrypted and buffered in user space: poll() would not report it.
    var hasBufferedInput: Bool { get }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress
    func write(_ bytes: UnsafeRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress
    /// A polite, non-blocking goodbye (TLS close_notify); the socket is closed on deinit.
    func shutdown()
}
