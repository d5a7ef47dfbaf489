/// An HMSG whose framing is sound (its sizes add up and CRLF follows the payload) but whose header
/// block cannot be read. The server forwards headers as publishers wrote them, so one faulty publisher
/// must not cost every subscriber its connection: the parser hands this over instead of failing, the
/// connection drops it with a count and a status event, and the stream goes on. The raw block is kept,
/// so the frame re-encodes to the bytes that were received.
public struct NATSMalformedMessage: Sendable, Hashable {
    public var subject: String
    public var sid: String
    public var replyTo: String?
    public var headerBytes: [UInt8]
    public var payload: [UInt8]
    /// Why the header block was refused (`NATSHeaders.parse`'s words).
    public var reason: String

    public init(subject: String, sid: String, replyTo: String?, headerBytes: [UInt8], payload: [UInt8], reason: String) {
        self.subject = subject
        self.sid = sid
        self.replyTo = replyTo
        self.headerBytes = headerBytes
        self.payload = payload
        self.reason = reason
    }
}
