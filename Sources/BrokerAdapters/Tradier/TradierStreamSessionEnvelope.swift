/// `POST /v1/markets/events/session`, exactly as Tradier sends it (reference §1.5):
/// `{"stream":{"url":"https://stream.tradier.com/v1/markets/events","sessionid":"c8638963-…"}}`.
/// The session id is the stream's only credential, so descriptions and mirrors never show it.
public struct TradierStreamSessionEnvelope: Decodable, Sendable, Hashable {
    public var stream: Stream

    public init(stream: Stream) {
        self.stream = stream
    }

    public struct Stream: Decodable, Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The HTTP streaming endpoint, not the WebSocket: the socket's address is fixed
        /// (`wss://ws.tradier.com/v1/markets/events`), so this is not used.
        public var url: String?
        /// Valid for 5 minutes; only one session per token is open at a time.
        public var sessionid: String

        public init(url: String?, sessionid: String) {
            self.url = url
            self.sessionid = sessionid
        }

        public var description: String { "TradierStreamSession(url: \(url ?? "none"), sessionid: <hidden>)" }
        public var debugDescription: String { description }
        public var customMirror: Mirror { Mirror(self, children: ["url": url as Any, "sessionid": "<hidden>"]) }
    }
}
