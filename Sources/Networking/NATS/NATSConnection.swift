import Domain
import Foundation
import Locking
import Synchronization

/// A NATS client connection (https://docs.nats.io/reference/reference-protocols/nats-protocol) over
/// POSIX sockets, with OpenSSL for `tls://`.
///
/// Concurrency model, the WebSocket client's (`LiveWebSocketConnection`): one dedicated I/O thread per
/// connection owns the socket, the SSL object, the parser, the subscriptions and the outgoing buffer
/// outright (`NATSIOLoop`). It sleeps in a single poll() on the socket and a wake-up pipe, with a
/// timeout only when a deadline is pending (the keepalive ping, a request's timeout, a reconnect
/// backoff). Other threads never touch the socket: `publish`, `subscribe`, `request` and `close`
/// append to a mutex-protected queue (`NATSIOChannel`) and wake the thread, which performs them in
/// order. Messages go to each subscription's bounded stream without waiting, so a slow consumer drops
/// (counted, with an event) and never holds up the connection.
///
/// Life: `connect` tries the servers in turn and returns once one has answered CONNECT with PONG. When
/// the connection is lost, the I/O thread reconnects by itself, with backoff, going round the
/// configured servers and those the cluster announced (INFO `connect_urls`), sends every live
/// subscription again, then what was published meanwhile (up to `pendingBytesLimit`). `close()` ends it.
public final class NATSConnection: Sendable {
    public struct Options: Sendable {
        /// `nats://host:port` or `tls://host:port`, tried in this order; credentials may be in the URL.
        public var servers: [String]
        /// Overrides credentials given in the URLs.
        public var credentials: NATSCredentials?
        /// Shown in the server's connection list (`nats server report connections`).
        public var name: String?
        /// DNS is not covered: getaddrinfo cannot be interrupted (it blocks this connection's thread only).
        public var connectTimeout: Duration
        /// nil: no keepalive pings.
        public var pingInterval: Duration?
        public var maxPingsOutstanding: Int
        public var reconnectBackoff: NATSReconnectBackoff
        /// nil: reconnect for as long as the connection is open.
        public var maxReconnectAttempts: Int?
        /// Messages a subscription holds for a consumer that has not taken them yet.
        public var subscriptionBufferLimit: Int
        /// Publication bytes that may wait to be written, while connected or reconnecting.
        public var pendingBytesLimit: Int
        public var requestTimeout: Duration
        /// How long `close()` keeps writing what is queued before it hangs up.
        public var closeTimeout: Duration
        /// Receive our own publications on our own subscriptions.
        public var echo: Bool
        /// A PEM file of CA certificates trusted besides the system store.
        public var extraCAFile: String?
        /// Switches certificate and hostname verification off. Only for an explicit user choice.
        public var allowInsecureTLS: Bool
        /// Seeds reply-subject names and backoff jitter; nil draws from the system's generator.
        public var randomSeed: UInt64?

        public init(
            servers: [String],
            credentials: NATSCredentials? = nil,
            name: String? = nil,
            connectTimeout: Duration = .seconds(5),
            pingInterval: Duration? = .seconds(10),
            maxPingsOutstanding: Int = 2,
            reconnectBackoff: NATSReconnectBackoff = NATSReconnectBackoff(),
            maxReconnectAttempts: Int? = nil,
            subscriptionBufferLimit: Int = 65_536,
            pendingBytesLimit: Int = 8 << 20,
            requestTimeout: Duration = .seconds(5),
            closeTimeout: Duration = .seconds(2),
            echo: Bool = true,
            extraCAFile: String? = nil,
            allowInsecureTLS: Bool = false,
            randomSeed: UInt64? = nil
        ) {
            self.servers = servers
            self.credentials = credentials
            self.name = name
            self.connectTimeout = connectTimeout
            self.pingInterval = pingInterval
            self.maxPingsOutstanding = maxPingsOutstanding
            self.reconnectBackoff = reconnectBackoff
            self.maxReconnectAttempts = maxReconnectAttempts
            self.subscriptionBufferLimit = subscriptionBufferLimit
            self.pendingBytesLimit = pendingBytesLimit
            self.requestTimeout = requestTimeout
            self.closeTimeout = closeTimeout
            self.echo = echo
            self.extraCAFile = extraCAFile
            self.allowInsecureTLS = allowInsecureTLS
            self.randomSeed = randomSeed
        }
    }

    public let options: Options
    /// Every reply subject of `request` is `<inboxPrefix>.<n>`, all served by one wildcard subscription.
    let inboxPrefix: String
    private let channel: NATSIOChannel
    private let broadcaster: NATSEventBroadcaster
    private let nextSID = Atomic<UInt64>(1)
    private let nextRequestToken = Atomic<UInt64>(1)
    private let random: Locked<SplitMix64>

    private init(options: Options, channel: NATSIOChannel, broadcaster: NATSEventBroadcaster, random: SplitMix64, inboxPrefix: String) {
        self.options = options
        self.channel = channel
        self.broadcaster = broadcaster
        self.random = Locked(random)
        self.inboxPrefix = inboxPrefix
    }

    deinit {
        channel.requestClose(waiter: nil)
    }

    /// Connects to the first server that answers, in the order given. Throws the most telling failure
    /// when none does (refused credentials outrank a refused connection). Cancelling the calling task
    /// abandons the attempt.
    public static func connect(_ options: Options) async throws(NATSError) -> NATSConnection {
        var seeds: [NATSServerAddress] = []
        var urlCredentials = NATSCredentials.none
        for (index, url) in options.servers.enumerated() {
            guard let (address, credentials) = NATSServerAddress.parse(url) else {
                // Not quoted: a URL that does not parse may still hold a password or token.
                throw .invalidConfiguration("server URL #\(index + 1) is not nats://host[:port] or tls://host[:port]")
            }
            seeds.append(address)
            if case .none = urlCredentials { urlCredentials = credentials }
        }
        guard !seeds.isEmpty else { throw .invalidConfiguration("no server URL given") }
        let credentials = options.credentials ?? urlCredentials

        var generator = SplitMix64(seed: options.randomSeed ?? UInt64.random(in: .min ... .max))
        let inboxPrefix = NATSInbox.make(using: &generator)
        let channel = NATSIOChannel(wakePipe: try wakePipe(), pendingBytesLimit: options.pendingBytesLimit)
        let broadcaster = NATSEventBroadcaster()
        let configuration = NATSIOLoop.Configuration(
            options: options, seeds: seeds, credentials: credentials, inboxPrefix: inboxPrefix,
            jitterSeed: generator.next())
        let connection = NATSConnection(options: options, channel: channel, broadcaster: broadcaster, random: generator, inboxPrefix: inboxPrefix)

        let result: Result<Void, NATSError> = await IOLoopThread.start(
            named: "nats \(seeds[0].hostAndPort)", cancel: { channel.requestClose(waiter: nil) }
        ) { established in
            NATSIOLoop(configuration: configuration, channel: channel, events: broadcaster).run(established: established)
        }
        try result.get()
        return connection
    }

    private static func wakePipe() throws(NATSError) -> WebSocketWakePipe {
        do {
            return try WebSocketWakePipe()
        } catch {
            throw NATSError(error)
        }
    }

    // MARK: - State

    public var status: NATSConnectionStatus { channel.status }
    /// The latest INFO of the server connected to (or last connected to).
    public var serverInfo: NATSServerInfo? { channel.serverInfo }
    /// The server connected to now, nil while reconnecting.
    public var connectedServer: NATSServerAddress? { channel.server }
    /// Every server the connection may turn to: those configured, then those the cluster announced.
    public var knownServers: [NATSServerAddress] { channel.knownServers }

    /// A stream of what happens from now on (events before the call are not replayed; `status` says
    /// where things stand). Ends after `.closed`.
    public func events() -> AsyncStream<NATSConnectionEvent> {
        broadcaster.stream()
    }

    /// A fresh subject nobody else uses, for replies and push consumers' deliveries.
    public func newInbox() -> String {
        random.withLock { NATSInbox.make(using: &$0) }
    }

    // MARK: - Publishing

    /// Queues a message and returns: it is written as soon as the socket allows, or, while
    /// reconnecting, once connected again. `flush()` confirms the server has it.
    public func publish(_ subject: String, payload: [UInt8] = [], headers: NATSHeaders? = nil, replyTo: String? = nil) throws(NATSError) {
        let bytes = try encodePublication(subject, payload: payload, headers: headers, replyTo: replyTo)
        try enqueue(.publish(bytes), countedBytes: bytes.count)
    }

    /// Publishes to `subject` with a reply subject of our own and waits for the first reply. A 503 status
    /// (nobody subscribes) is `.noResponders`; no reply within `timeout` (default `requestTimeout`) is
    /// `.timedOut`.
    public func request(_ subject: String, payload: [UInt8] = [], headers: NATSHeaders? = nil, timeout: Duration? = nil) async throws(NATSError) -> NATSMessage {
        let token = nextRequestToken.add(1, ordering: .relaxed).oldValue
        let bytes = try encodePublication(subject, payload: payload, headers: headers, replyTo: inboxPrefix + "." + String(token))
        let timeout = timeout ?? options.requestTimeout
        let channel = channel
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (completion: NATSIOChannel.ReplyCompletion) in
                let request = NATSIOChannel.Request.request(token: token, subject: subject, bytes: bytes, timeout: timeout, completion: completion)
                if case .failure(let refusal) = channel.enqueue(request, countedBytes: bytes.count) {
                    completion.resume(returning: .failure(Self.error(for: refusal, limit: channel.pendingBytesLimit)))
                }
            }
        } onCancel: {
            _ = channel.enqueue(.cancelRequest(token: token))
        }
        return try result.get()
    }

    /// Returns once the server has processed everything published before the call (a PING answered by
    /// its PONG). Fails if the connection is lost before that.
    public func flush(timeout: Duration? = nil) async throws(NATSError) {
        let timeout = timeout ?? options.requestTimeout
        let channel = channel
        let result = await withCheckedContinuation { (completion: NATSIOChannel.Completion) in
            if case .failure(let refusal) = channel.enqueue(.flush(timeout: timeout, completion: completion)) {
                completion.resume(returning: .failure(Self.error(for: refusal, limit: channel.pendingBytesLimit)))
            }
        }
        try result.get()
    }

    // MARK: - Subscribing

    /// Subscribes to `subject` (wildcards allowed); messages arrive on the subscription's `messages`.
    /// Members of one `queueGroup` share the messages, each going to one of them.
    public func subscribe(to subject: String, queueGroup: String? = nil, bufferLimit: Int? = nil) throws(NATSError) -> NATSSubscription {
        let limit = bufferLimit ?? options.subscriptionBufferLimit
        return try register(subject, queueGroup: queueGroup) { [channel] sid in
            NATSSubscription(subject: subject, queueGroup: queueGroup, sid: sid, bufferLimit: limit, channel: channel)
        }
    }

    /// Subscribes with each message handed to `push` on the I/O thread (which must not block), for
    /// code in this module that feeds its own mailbox; `end` runs when the subscription ends.
    func subscribe(
        to subject: String, push: @escaping @Sendable (NATSMessage) -> NATSMailboxPush, end: @escaping @Sendable () -> Void
    ) throws(NATSError) -> NATSSubscription {
        try register(subject) { [channel] sid in NATSSubscription(subject: subject, sid: sid, channel: channel, push: push, end: end) }
    }

    /// Checks the subject and queue group, gives the subscription the next id and sends it to the I/O thread.
    private func register(_ subject: String, queueGroup: String? = nil, _ make: (String) -> NATSSubscription) throws(NATSError) -> NATSSubscription {
        if let problem = NATSSubject.subscriptionProblem(subject) { throw .invalidSubject(subject, reason: problem) }
        if let queueGroup, let problem = NATSSubject.queueGroupProblem(queueGroup) {
            throw .invalidSubject(queueGroup, reason: "as a queue group \(problem)")
        }
        let subscription = make(String(nextSID.add(1, ordering: .relaxed).oldValue))
        try enqueue(.subscribe(subscription))
        return subscription
    }

    /// Subscribes and calls `handler` for each message, one at a time, on a task of its own (never on
    /// the I/O thread), until the subscription ends.
    @discardableResult
    public func subscribe(
        to subject: String, queueGroup: String? = nil, bufferLimit: Int? = nil,
        handler: @escaping @Sendable (NATSMessage) async -> Void
    ) throws(NATSError) -> NATSSubscription {
        let subscription = try subscribe(to: subject, queueGroup: queueGroup, bufferLimit: bufferLimit)
        Task {
            for await message in subscription.messages { await handler(message) }
        }
        return subscription
    }

    // MARK: - Closing

    /// Writes what is queued (for up to `closeTimeout`), then closes. Subscriptions end, waiting
    /// requests fail with `.connectionClosed`. Safe to call more than once.
    public func close() async {
        let channel = channel
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            channel.requestClose(waiter: waiter)
        }
    }

    // MARK: - Private

    private func encodePublication(_ subject: String, payload: [UInt8], headers: NATSHeaders?, replyTo: String?) throws(NATSError) -> [UInt8] {
        if let problem = NATSSubject.publishProblem(subject) { throw .invalidSubject(subject, reason: problem) }
        if let replyTo, let problem = NATSSubject.publishProblem(replyTo) { throw .invalidSubject(replyTo, reason: "as a reply subject \(problem)") }
        if let problem = headers?.problem { throw .invalidHeaders(problem) }
        let headerBytes = headers?.encoded
        let size = (headerBytes?.count ?? 0) + payload.count
        let limit = channel.maxPayload
        guard size <= limit else { throw .payloadTooLarge(size: size, limit: limit) }
        var bytes: [UInt8] = []
        NATSProtocolEncoder.appendPublish(subject: subject, replyTo: replyTo, headerBytes: headerBytes, payload: payload, to: &bytes)
        return bytes
    }

    private func enqueue(_ request: NATSIOChannel.Request, countedBytes: Int = 0) throws(NATSError) {
        if case .failure(let refusal) = channel.enqueue(request, countedBytes: countedBytes) {
            throw Self.error(for: refusal, limit: channel.pendingBytesLimit)
        }
    }

    private static func error(for refusal: NATSIOChannel.Refusal, limit: Int) -> NATSError {
        switch refusal {
        case .closed: .connectionClosed
        case .bufferFull: .outboundBufferFull(limit: limit)
        }
    }
}
