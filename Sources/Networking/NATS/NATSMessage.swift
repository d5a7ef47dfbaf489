/// A message the server delivered (MSG, or HMSG when `headers` is set) to the subscription `sid`.
public struct NATSMessage: Sendable, Hashable {
    public var subject: String
    /// The subscription it was delivered to, as the client named it in SUB.
    public var sid: String
    public var replyTo: String?
    public var headers: NATSHeaders?
    public var payload: [UInt8]

    public init(subject: String, sid: String, replyTo: String? = nil, headers: NATSHeaders? = nil, payload: [UInt8] = []) {
        self.subject = subject
        self.sid = sid
        self.replyTo = replyTo
        self.headers = headers
        self.payload = payload
    }

    /// The status code of the header block's first line (`NATS/1.0 503`), if any.
    public var statusCode: Int? { headers?.statusCode }

    /// The server's "no responders" answer to a request: status 503 and nothing else (ADR-4; the same
    /// test as nats.go and nats.js, since a responder may send a 503 with a body of its own).
    public var isNoRespondersStatus: Bool { statusCode == 503 && payload.isEmpty }
}
