import Foundation

/// Opens RFC 6455 connections over POSIX sockets, with OpenSSL for `wss://`. See
/// `LiveWebSocketConnection` for the threading model.
public struct LiveWebSocketConnector: WebSocketConnector {
    public struct Options: Sendable {
        /// DNS is not covered: getaddrinfo cannot be interrupted (it blocks the connection's own thread only).
        public var connectTimeout: Duration
        /// From the TCP connection to the server's 101: the TLS handshake and the HTTP upgrade.
        public var handshakeTimeout: Duration
        /// Silence after which we ping; nil disables the heartbeat (and with it the idle timeout).
        public var pingAfterIdle: Duration?
        /// How long after that ping anything at all must arrive before the connection counts as dead.
        public var pongTimeout: Duration
        /// How long `close` waits for the server's close frame before hanging up anyway.
        public var closeTimeout: Duration
        public var maxFrameSize: Int
        public var maxMessageSize: Int
        /// A PEM file of CA certificates trusted in addition to the system store (a broker's sandbox, a
        /// corporate proxy, the tests' throwaway CA).
        public var extraCAFile: String?
        /// Switches certificate and hostname verification off. Only for an explicit user choice that the
        /// app shows loudly on screen.
        public var allowInsecureTLS: Bool
        /// Nil reads every message as it lands (the default; what a relay or a test wants).
        public var readPacing: (any WebSocketReadPacing)?
        /// With `readPacing`, the thread that makes every connection's held reads at their slot, together
        /// (see `WebSocketSlotReader`); nil: each connection's own thread reads at its slot.
        public var slotReader: WebSocketSlotReader?

        public init(
            connectTimeout: Duration = .seconds(10),
            handshakeTimeout: Duration = .seconds(10),
            pingAfterIdle: Duration? = .seconds(30),
            pongTimeout: Duration = .seconds(10),
            closeTimeout: Duration = .seconds(2),
            maxFrameSize: Int = WebSocketFrameCodec.defaultMaxFrameSize,
            maxMessageSize: Int = WebSocketMessageAssembler.defaultMaxMessageSize,
            extraCAFile: String? = nil,
            allowInsecureTLS: Bool = false,
            readPacing: (any WebSocketReadPacing)? = nil,
            slotReader: WebSocketSlotReader? = nil
        ) {
            self.readPacing = readPacing
            self.slotReader = slotReader
            self.connectTimeout = connectTimeout
            self.handshakeTimeout = handshakeTimeout
            self.pingAfterIdle = pingAfterIdle
            self.pongTimeout = pongTimeout
            self.closeTimeout = closeTimeout
            self.maxFrameSize = maxFrameSize
            self.maxMessageSize = maxMessageSize
            self.extraCAFile = extraCAFile
            self.allowInsecureTLS = allowInsecureTLS
        }
    }

    public var options: Options
    private let maskingKeySource: @Sendable () -> WebSocketMaskingKey
    private let handshakeKeySource: @Sendable () -> [UInt8]

    /// The key sources default to the system's random generator; tests may fix them.
    public init(
        options: Options = Options(),
        maskingKeySource: @escaping @Sendable () -> WebSocketMaskingKey = WebSocketMaskingKey.random,
        handshakeKeySource: @escaping @Sendable () -> [UInt8] = LiveWebSocketConnector.randomHandshakeKey
    ) {
        self.options = options
        self.maskingKeySource = maskingKeySource
        self.handshakeKeySource = handshakeKeySource
    }

    @Sendable public static func randomHandshakeKey() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in generator.next() }
    }

    public func connect(to url: URL, headers: [String: String], secretNames: Set<String>) async throws(WebSocketError) -> any WebSocketConnection {
        let handshake = try WebSocketHandshake(url: url, headers: headers, keyBytes: handshakeKeySource())
        let request = HTTPRequest(url: url, headerFields: HTTPHeaderFields(headers))
        let configuration = LiveWebSocketConnection.Configuration(
            handshake: handshake,
            options: options,
            secretNames: secretNames,
            secretValues: Redaction.secretValues(in: request, secretNames: secretNames),
            maskingKeySource: maskingKeySource
        )
        let connection = try LiveWebSocketConnection(configuration: configuration)
        try await connection.open()
        return connection
    }
}
