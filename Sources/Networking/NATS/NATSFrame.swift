/// One operation of the NATS client protocol
/// (https://docs.nats.io/reference/reference-protocols/nats-protocol), either direction.
///
/// A server sends INFO, MSG, HMSG, PING, PONG, +OK and -ERR; a client sends CONNECT, PUB, HPUB, SUB,
/// UNSUB, PING and PONG. `NATSProtocolParser` reads either side's (the client reads the server's; the
/// tests and the fuzzer read a client's too), and `NATSProtocolEncoder` writes every case.
public enum NATSFrame: Sendable, Hashable {
    case info(NATSServerInfo)
    case connect(NATSConnectOptions)
    /// PUB, or HPUB when `headers` is set.
    case publish(subject: String, replyTo: String?, headers: NATSHeaders?, payload: [UInt8])
    case subscribe(subject: String, queueGroup: String?, sid: String)
    /// UNSUB; with `maxMessages` the server unsubscribes after delivering that many in all.
    case unsubscribe(sid: String, maxMessages: Int?)
    /// MSG, or HMSG when the message has headers.
    case message(NATSMessage)
    /// An HMSG whose header block cannot be read (see `NATSMalformedMessage`).
    case malformedMessage(NATSMalformedMessage)
    case ping
    case pong
    case ok
    /// The text of `-ERR '…'`, without the quotes.
    case error(String)

    /// The operation's name on the wire, for messages.
    public var operationName: String {
        switch self {
        case .info: "INFO"
        case .connect: "CONNECT"
        case .publish(_, _, let headers, _): headers == nil ? "PUB" : "HPUB"
        case .subscribe: "SUB"
        case .unsubscribe: "UNSUB"
        case .message(let message): message.headers == nil ? "MSG" : "HMSG"
        case .malformedMessage: "HMSG"
        case .ping: "PING"
        case .pong: "PONG"
        case .ok: "+OK"
        case .error: "-ERR"
        }
    }
}
