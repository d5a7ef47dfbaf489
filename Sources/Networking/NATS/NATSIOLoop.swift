import Domain
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of a NATS connection's I/O thread: connects, serves, reconnects, until the connection is
/// closed. Everything here runs on that one thread; see `NATSConnection` for the model.
///
/// A connection to one server (`open`): TCP; the server's INFO, in plain text even for TLS; the TLS
/// handshake when the URL is `tls://` or INFO says `tls_required`; CONNECT and PING, answered by PONG
/// (or by `-ERR 'Authorization Violation'` and a hang-up). Then every live subscription is sent again,
/// ahead of whatever was published in the meantime.
final class NATSIOLoop {
    struct Configuration: Sendable {
        var options: NATSConnection.Options
        var seeds: [NATSServerAddress]
        var credentials: NATSCredentials
        var inboxPrefix: String
        var jitterSeed: UInt64
    }

    private struct PendingRequest {
        let subject: String
        let timeout: Duration
        let deadline: ContinuousClock.Instant
        let completion: NATSIOChannel.ReplyCompletion
    }

    private struct PendingFlush {
        let timeout: Duration
        let deadline: ContinuousClock.Instant
        let completion: NATSIOChannel.Completion
    }

    private struct SubscriptionRecord {
        let subscription: NATSSubscription
        /// Dropping since the buffer was last at most half full: one `.slowConsumer` event per episode.
        var isDropping = false
    }

    /// The sid of the one wildcard subscription that serves every request's reply; users' sids start at 1.
    private static let requestInboxSID = "0"
    private static let readChunkSize = 64 * 1024

    private let options: NATSConnection.Options
    private let credentials: NATSCredentials
    private let inboxPrefix: String
    private let channel: NATSIOChannel
    private let events: NATSEventBroadcaster
    private var pool: NATSServerPool
    private var jitter: SplitMix64
    private let start = ContinuousClock.now
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: NATSIOLoop.readChunkSize, alignment: 1)

    // The current server connection.
    private var transport: (any WebSocketTransport)?
    private var server: NATSServerAddress?
    private var parser = NATSProtocolParser()
    private var keepalive: NATSKeepalive
    /// What the socket must become before a stalled read or write can continue (TLS may need either).
    private var readWait = WebSocketTransportWait.readable
    private var writeWait = WebSocketTransportWait.writable
    /// The server's last `-ERR`, cleared by any later frame: the likely reason if it hangs up next.
    private var serverErrorText: String?
    /// PINGs written on this connection and not yet answered, oldest first, with the flush each serves.
    private var pongWaiters: [Int?] = []

    // Across connections.
    private var outbox = NATSOutbox()
    private var subscriptions: [String: SubscriptionRecord] = [:]
    private var requests: [UInt64: PendingRequest] = [:]
    /// Cancellations that overtook their request in the queue; tokens only grow, so older ones are stale.
    private var cancelledTokens: Set<UInt64> = []
    private var highestRequestToken: UInt64 = 0
    private var requestInboxSubscribed = false
    private var flushes: [Int: PendingFlush] = [:]
    private var nextFlushID = 0
    private var closeRequested = false

    init(configuration: Configuration, channel: NATSIOChannel, events: NATSEventBroadcaster) {
        options = configuration.options
        credentials = configuration.credentials
        inboxPrefix = configuration.inboxPrefix
        self.channel = channel
        self.events = events
        pool = NATSServerPool(seeds: configuration.seeds)
        channel.update(knownServers: pool.servers)
        jitter = SplitMix64(seed: configuration.jitterSeed)
        keepalive = NATSKeepalive(interval: configuration.options.pingInterval, maxOutstanding: configuration.options.maxPingsOutstanding, now: .zero)
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Tries every server once, reports the outcome through `established`, then serves and reconnects
    /// until the connection is closed.
    func run(established: (Result<Void, NATSError>) -> Void) {
        PipeSignal.blockOnThisThread()

        var failure: NATSError?
        for _ in 0..<pool.count {
            do {
                try open(pool.next())
                break
            } catch {
                failure = Self.moreTelling(error, than: failure)
                if channel.isCloseRequested {
                    failure = .cancelled
                    break
                }
            }
        }
        guard let server, transport != nil else {
            let error = failure ?? .connectionClosed
            tearDown(reason: error)
            established(.failure(error))
            return
        }
        established(.success(()))
        events.emit(.connected(server: server.description))

        var reason: NATSError?
        while let lost = serve() {
            connectionLost(lost)
            if let gaveUp = reconnect() {
                reason = gaveUp
                break
            }
            if closeRequested { break }
        }
        tearDown(reason: reason)
    }

    // MARK: - Connecting

    private func open(_ address: NATSServerAddress) throws(NATSError) {
        let deadline = ContinuousClock.now + options.connectTimeout
        let timeoutDescription = "connecting to \(address) took longer than \(WebSocketIOLoop.describe(options.connectTimeout))"
        let channel = channel
        let isCancelled = { channel.isCloseRequested }
        let tcp: TCPTransport
        do {
            tcp = try TCPTransport.connect(
                host: address.host, port: address.port, deadline: deadline, timeoutDescription: timeoutDescription,
                wakePipe: channel.wakePipe, isCancelled: isCancelled)
        } catch {
            throw NATSError(error)
        }
        var connection: any WebSocketTransport = tcp
        var parser = NATSProtocolParser(peer: .server)
        let first = try readFrame(&parser, from: connection, of: address, until: deadline, timeoutDescription)
        guard case .info(var info) = first else {
            if case .error(let text) = first { throw serverError(text, from: address) }
            throw .protocolViolation("\(address) sent \(first.operationName) where INFO comes first")
        }
        if address.requiresTLS || info.tlsRequired == true {
            guard info.tlsRequired == true || info.tlsAvailable == true else {
                throw .tls("\(address) does not offer TLS (the URL says tls://)")
            }
            guard parser.bufferedByteCount == 0 else { throw .protocolViolation("\(address) sent more than INFO before the TLS handshake") }
            do {
                let endpoint = WebSocketEndpoint(host: address.host, port: address.port, usesTLS: true, requestTarget: "/")
                let tls = try TLSTransport(over: tcp, endpoint: endpoint, caFile: options.extraCAFile, allowInsecure: options.allowInsecureTLS)
                try tls.handshake(deadline: deadline, timeoutDescription: timeoutDescription, wakePipe: channel.wakePipe, isCancelled: isCancelled)
                connection = tls
            } catch {
                throw NATSError(error)
            }
        }
        parser.maxPayload = info.maxPayload ?? NATSProtocolParser.defaultMaxPayload

        var connect = NATSConnectOptions(tlsRequired: connection is TLSTransport, name: options.name, echo: options.echo)
        credentials.apply(to: &connect)
        let hello = NATSProtocolEncoder.encode(.connect(connect)) + NATSProtocolEncoder.encode(.ping)
        try writeAll(hello, to: connection, of: address, until: deadline, timeoutDescription)
        answered: while true {
            let frame = try readFrame(&parser, from: connection, of: address, until: deadline, timeoutDescription)
            switch frame {
            case .pong:
                break answered
            case .info(let update):
                info = update
                parser.maxPayload = update.maxPayload ?? NATSProtocolParser.defaultMaxPayload
            case .ping:
                try writeAll(NATSProtocolEncoder.encode(.pong), to: connection, of: address, until: deadline, timeoutDescription)
            case .ok:
                continue
            case .error(let text):
                throw serverError(text, from: address)
            default:
                throw .protocolViolation("\(address) sent \(frame.operationName) before answering CONNECT")
            }
        }

        transport = connection
        server = address
        self.parser = parser
        keepalive = NATSKeepalive(interval: options.pingInterval, maxOutstanding: options.maxPingsOutstanding, now: elapsed)
        readWait = .readable
        writeWait = .writable
        serverErrorText = nil
        pongWaiters = []
        pool.connected(to: address)
        channel.update(status: .connected, server: address, serverInfo: info)
        apply(info)

        // Subscriptions first, in the order they were made, then what was published while away.
        var again: [[UInt8]] = []
        if requestInboxSubscribed {
            again.append(NATSProtocolEncoder.encode(.subscribe(subject: inboxPrefix + ".*", queueGroup: nil, sid: Self.requestInboxSID)))
        }
        for record in subscriptions.values.sorted(by: { UInt64($0.subscription.sid) ?? 0 < UInt64($1.subscription.sid) ?? 0 }) {
            let subscription = record.subscription
            again.append(NATSProtocolEncoder.encode(.subscribe(subject: subscription.subject, queueGroup: subscription.queueGroup, sid: subscription.sid)))
        }
        outbox.prepend(again)
    }

    /// Goes round the servers with backoff until one answers. nil once connected (or when a close was
    /// asked for meanwhile); the last failure when `maxReconnectAttempts` ran out.
    private func reconnect() -> NATSError? {
        var attempt = 0
        var lastFailure: NATSError?
        while !closeRequested {
            attempt += 1
            if let maximum = options.maxReconnectAttempts, attempt > maximum {
                return lastFailure ?? .network("gave up reconnecting after \(maximum) attempts")
            }
            waitDisconnected(until: .now + options.reconnectBackoff.delay(beforeAttempt: attempt, unit: jitter.nextUnit()))
            if closeRequested { return nil }
            let address = pool.next()
            events.emit(.reconnecting(server: address.description, attempt: attempt))
            do {
                try open(address)
                events.emit(.reconnected(server: address.description))
                return nil
            } catch {
                lastFailure = error
            }
        }
        return nil
    }

    /// Between connections: keeps taking requests (publications queue up, requests and flushes time
    /// out) until `deadline` or a close.
    private func waitDisconnected(until deadline: ContinuousClock.Instant) {
        while true {
            takeRequests()
            if closeRequested { return }
            expireRequestsAndFlushes()
            guard ContinuousClock.now < deadline else { return }
            let wake = [deadline, nextRequestOrFlushDeadline()].compactMap { $0 }.min()
            _ = WebSocketPoller.wait(socket: -1, for: [], wakeDescriptor: channel.wakePipe.readDescriptor, until: wake)
        }
    }

    private func readFrame(
        _ parser: inout NATSProtocolParser, from connection: any WebSocketTransport, of address: NATSServerAddress,
        until deadline: ContinuousClock.Instant, _ timeoutDescription: String
    ) throws(NATSError) -> NATSFrame {
        while true {
            do {
                if let frame = try parser.nextFrame() { return frame }
            } catch {
                throw .protocolViolation(error.detail)
            }
            let progress: WebSocketTransportProgress
            do {
                progress = try connection.read(into: readBuffer)
            } catch {
                throw NATSError(error)
            }
            switch progress {
            case .transferred(let count): parser.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
            case .wouldBlock(let wait): try waitDuringHandshake(connection, for: wait, until: deadline, timeoutDescription)
            case .closed: throw .network("\(address) closed the connection during the handshake")
            }
        }
    }

    private func writeAll(
        _ bytes: [UInt8], to connection: any WebSocketTransport, of address: NATSServerAddress,
        until deadline: ContinuousClock.Instant, _ timeoutDescription: String
    ) throws(NATSError) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let progress: WebSocketTransportProgress
            do {
                progress = try rest.withUnsafeBytes { bytes in Result { () throws(WebSocketError) in try connection.write(bytes) } }.get()
            } catch {
                throw NATSError(error)
            }
            switch progress {
            case .transferred(let count): rest = rest.dropFirst(count)
            case .wouldBlock(let wait): try waitDuringHandshake(connection, for: wait, until: deadline, timeoutDescription)
            case .closed: throw .network("\(address) closed the connection during the handshake")
            }
        }
    }

    /// Requests that arrive meanwhile stay in the channel: `serve` takes them once connected.
    private func waitDuringHandshake(
        _ connection: any WebSocketTransport, for wait: WebSocketTransportWait, until deadline: ContinuousClock.Instant, _ timeoutDescription: String
    ) throws(NATSError) {
        let readiness = WebSocketPoller.wait(socket: connection.descriptor, for: [wait], wakeDescriptor: channel.wakePipe.readDescriptor, until: deadline)
        if readiness.woken {
            channel.wakePipe.drain()
            if channel.isCloseRequested { throw .cancelled }
        }
        if !readiness.readable, !readiness.writable, !readiness.failed, ContinuousClock.now >= deadline {
            throw .timedOut(timeoutDescription)
        }
    }

    // MARK: - Serving

    /// Serves the current connection. Returns why it was lost, or nil after a requested close.
    private func serve() -> NATSError? {
        while let transport {
            takeRequests()
            if closeRequested {
                closeGracefully()
                return nil
            }
            if let lost = flushWrites() { return lost }
            var wanted: Set<WebSocketTransportWait> = [readWait]
            if !outbox.isEmpty { wanted.insert(writeWait) }
            let deadline = transport.hasBufferedInput ? .now : nextDeadline()
            let readiness = WebSocketPoller.wait(socket: transport.descriptor, for: wanted, wakeDescriptor: channel.wakePipe.readDescriptor, until: deadline)
            if readiness.readable || readiness.writable || readiness.failed || transport.hasBufferedInput {
                if let lost = readAvailable() { return lost }
            }
            if let lost = checkDeadlines() { return lost }
        }
        return .network("connection lost")
    }

    private func takeRequests() {
        let (taken, close) = channel.takeRequests()
        if close { closeRequested = true }
        for request in taken {
            switch request {
            case .publish(let bytes):
                outbox.append(bytes, kind: .publication)
            case .subscribe(let subscription):
                subscriptions[subscription.sid] = SubscriptionRecord(subscription: subscription)
                // While away, the next connection sends it with the others.
                if transport != nil {
                    outbox.append(NATSProtocolEncoder.encode(.subscribe(subject: subscription.subject, queueGroup: subscription.queueGroup, sid: subscription.sid)), kind: .control)
                }
            case .unsubscribe(let sid):
                guard let record = subscriptions.removeValue(forKey: sid) else { continue }
                record.subscription.finish()
                if transport != nil { outbox.append(NATSProtocolEncoder.encode(.unsubscribe(sid: sid, maxMessages: nil)), kind: .control) }
            case .request(let token, let subject, let bytes, let timeout, let completion):
                highestRequestToken = max(highestRequestToken, token)
                if cancelledTokens.remove(token) != nil {
                    channel.release(bytes.count)
                    completion.resume(returning: .failure(.cancelled))
                    continue
                }
                if !requestInboxSubscribed {
                    requestInboxSubscribed = true
                    if transport != nil {
                        outbox.append(NATSProtocolEncoder.encode(.subscribe(subject: inboxPrefix + ".*", queueGroup: nil, sid: Self.requestInboxSID)), kind: .control)
                    }
                }
                requests[token] = PendingRequest(subject: subject, timeout: timeout, deadline: .now + timeout, completion: completion)
                outbox.append(bytes, kind: .publication)
            case .cancelRequest(let token):
                if let pending = requests.removeValue(forKey: token) {
                    pending.completion.resume(returning: .failure(.cancelled))
                } else if token > highestRequestToken {
                    cancelledTokens.insert(token)
                }
            case .flush(let timeout, let completion):
                let id = nextFlushID
                nextFlushID += 1
                flushes[id] = PendingFlush(timeout: timeout, deadline: .now + timeout, completion: completion)
                outbox.append(NATSProtocolEncoder.encode(.ping), kind: .ping(flushID: id))
            }
        }
    }

    /// Reads until the socket has nothing more, or `limit` chunks (so a flood cannot starve writes and
    /// deadlines). Returns why the connection was lost, if it was.
    private func readAvailable(limit: Int = 16) -> NATSError? {
        for _ in 0..<limit {
            guard let transport else { return nil }
            do {
                switch try transport.read(into: readBuffer) {
                case .transferred(let count):
                    readWait = .readable
                    parser.append(UnsafeRawBufferPointer(rebasing: readBuffer[..<count]))
                    if let violation = handleFrames() { return violation }
                    // A short read took all the kernel had: back to poll(), which says when more comes,
                    // rather than another read that would only say "would block" (a system call per
                    // wake-up saved; on a virtual machine each one costs microseconds).
                    if count < readBuffer.count, !transport.hasBufferedInput { return nil }
                case .wouldBlock(let wait):
                    readWait = wait
                    return nil
                case .closed:
                    return hangUpReason(.network("\(describeServer) closed the connection"))
                }
            } catch {
                return hangUpReason(NATSError(error))
            }
        }
        return nil
    }

    private func handleFrames() -> NATSError? {
        while true {
            let frame: NATSFrame?
            do {
                frame = try parser.nextFrame()
            } catch {
                return .protocolViolation(error.detail)
            }
            guard let frame else { return nil }
            if case .error = frame {} else { serverErrorText = nil }
            handle(frame)
        }
    }

    private func handle(_ frame: NATSFrame) {
        switch frame {
        case .message(let message):
            if message.sid == Self.requestInboxSID {
                resolveReply(message)
            } else {
                deliver(message)
            }
        case .malformedMessage(let message):
            subscriptions[message.sid]?.subscription.countDrop()
            events.emit(.malformedMessageDropped(subject: visible(message.subject), reason: message.reason))
        case .ping:
            outbox.append(NATSProtocolEncoder.encode(.pong), kind: .control)
        case .pong:
            keepalive.pongReceived()
            if !pongWaiters.isEmpty, let id = pongWaiters.removeFirst(), let flush = flushes.removeValue(forKey: id) {
                flush.completion.resume(returning: .success(()))
            }
        case .info(let info):
            channel.update(serverInfo: info)
            apply(info)
        case .ok:
            break
        case .error(let text):
            let shown = visible(text)
            serverErrorText = shown
            events.emit(.serverError(shown))
        case .connect, .publish, .subscribe, .unsubscribe:
            // A parser reading the server's side never returns these.
            break
        }
    }

    private func deliver(_ message: NATSMessage) {
        guard let record = subscriptions[message.sid] else { return }
        switch record.subscription.deliver(message) {
        case .delivered(let buffered):
            if record.isDropping, buffered * 2 <= record.subscription.bufferLimit {
                subscriptions[message.sid]?.isDropping = false
            }
        case .droppedOldest:
            if !record.isDropping {
                subscriptions[message.sid]?.isDropping = true
                events.emit(.slowConsumer(subject: visible(record.subscription.subject), dropped: record.subscription.droppedCount))
            }
        case .ended:
            // The consumer went away; its stream's termination has queued the unsubscribe.
            break
        }
    }

    private func resolveReply(_ message: NATSMessage) {
        let prefix = inboxPrefix + "."
        guard message.subject.hasPrefix(prefix), let token = UInt64(message.subject.dropFirst(prefix.count)),
              let pending = requests.removeValue(forKey: token)
        else { return }
        if message.isNoRespondersStatus {
            pending.completion.resume(returning: .failure(.noResponders(subject: pending.subject)))
        } else {
            pending.completion.resume(returning: .success(message))
        }
    }

    private func apply(_ info: NATSServerInfo) {
        parser.maxPayload = info.maxPayload ?? NATSProtocolParser.defaultMaxPayload
        if let urls = info.connectURLs {
            let added = pool.update(connectURLs: urls, requiresTLS: server?.requiresTLS ?? false, current: server)
            channel.update(knownServers: pool.servers)
            if !added.isEmpty { events.emit(.discoveredServers(added.map(\.description))) }
        }
        if info.lameDuckMode == true, let server {
            events.emit(.lameDuckMode(server: server.description))
        }
    }

    /// Returns why the connection was lost if a write failed.
    private func flushWrites() -> NATSError? {
        while let transport, !outbox.isEmpty {
            do {
                let progress = try outbox.unwritten.withUnsafeBytes { bytes in
                    Result { () throws(WebSocketError) in try transport.write(bytes) }
                }.get()
                switch progress {
                case .transferred(let count):
                    writeWait = .writable
                    let finished = outbox.wrote(count)
                    channel.release(finished.publicationBytes)
                    pongWaiters += finished.pings
                case .wouldBlock(let wait):
                    writeWait = wait
                    return nil
                case .closed:
                    return hangUpReason(.network("\(describeServer) closed the connection"))
                }
            } catch {
                // The server's last words (an -ERR before its reset) may still be unread.
                _ = readAvailable(limit: 4)
                return hangUpReason(NATSError(error))
            }
        }
        return nil
    }

    private func checkDeadlines() -> NATSError? {
        expireRequestsAndFlushes()
        switch keepalive.action(at: elapsed) {
        case .none:
            return nil
        case .sendPing:
            outbox.append(NATSProtocolEncoder.encode(.ping), kind: .ping(flushID: nil))
            return nil
        case .stale:
            let interval = WebSocketIOLoop.describe(options.pingInterval ?? .zero)
            return .timedOut("\(describeServer) did not answer \(keepalive.outstanding) pings sent \(interval) apart; the connection is stale")
        }
    }

    private func expireRequestsAndFlushes() {
        let now = ContinuousClock.now
        if !requests.isEmpty {
            for (token, pending) in requests where pending.deadline <= now {
                requests.removeValue(forKey: token)
                let timeout = WebSocketIOLoop.describe(pending.timeout)
                pending.completion.resume(returning: .failure(.timedOut("no reply on \(visible(pending.subject)) within \(timeout)")))
            }
        }
        if !flushes.isEmpty {
            for (id, flush) in flushes where flush.deadline <= now {
                flushes.removeValue(forKey: id)
                let timeout = WebSocketIOLoop.describe(flush.timeout)
                flush.completion.resume(returning: .failure(.timedOut("the server did not confirm a flush within \(timeout)")))
            }
        }
    }

    private func nextDeadline() -> ContinuousClock.Instant? {
        [keepalive.nextDeadline.map { start + $0 }, nextRequestOrFlushDeadline()].compactMap { $0 }.min()
    }

    private func nextRequestOrFlushDeadline() -> ContinuousClock.Instant? {
        let request = requests.values.lazy.map(\.deadline).min()
        let flush = flushes.values.lazy.map(\.deadline).min()
        return [request, flush].compactMap { $0 }.min()
    }

    // MARK: - Ending

    /// Writes what is queued, for up to `closeTimeout`, then hangs up.
    private func closeGracefully() {
        let deadline = ContinuousClock.now + options.closeTimeout
        while let transport, !outbox.isEmpty, ContinuousClock.now < deadline {
            if flushWrites() != nil { break }
            guard !outbox.isEmpty else { break }
            let readiness = WebSocketPoller.wait(socket: transport.descriptor, for: [writeWait, readWait], wakeDescriptor: channel.wakePipe.readDescriptor, until: deadline)
            if readiness.woken { channel.wakePipe.drain() }
            if readiness.readable || readiness.failed, readAvailable() != nil { break }
        }
        transport?.shutdown()
        transport = nil
    }

    /// A lost connection: what was queued waits for the next one; flushes whose PING went out on this
    /// one can no longer be confirmed.
    private func connectionLost(_ reason: NATSError) {
        let lostServer = describeServer
        transport = nil
        server = nil
        outbox.connectionLost()
        for case let id? in pongWaiters {
            flushes.removeValue(forKey: id)?.completion.resume(returning: .failure(.network("connection to \(lostServer) lost before the server confirmed the flush")))
        }
        pongWaiters = []
        channel.update(status: .reconnecting, server: nil, serverInfo: nil)
        events.emit(.disconnected(reason: reason))
    }

    /// Closes the socket, ends every subscription, fails everything still waiting, and releases
    /// everyone waiting in `close`.
    private func tearDown(reason: NATSError?) {
        transport = nil
        server = nil
        let (unserved, closeWaiters) = channel.end()
        for record in subscriptions.values { record.subscription.finish() }
        subscriptions.removeAll()
        for pending in requests.values { pending.completion.resume(returning: .failure(.connectionClosed)) }
        requests.removeAll()
        for flush in flushes.values { flush.completion.resume(returning: .failure(.connectionClosed)) }
        flushes.removeAll()
        _ = outbox.removeAll()
        for request in unserved {
            switch request {
            case .request(_, _, _, _, let completion): completion.resume(returning: .failure(.connectionClosed))
            case .flush(_, let completion): completion.resume(returning: .failure(.connectionClosed))
            case .subscribe(let subscription): subscription.finish()
            case .publish, .unsubscribe, .cancelRequest: break
            }
        }
        events.emit(.closed(reason: reason))
        events.finish()
        for waiter in closeWaiters { waiter.resume() }
    }

    // MARK: - Text

    /// The server's words are the likelier reason when it hangs up right after an `-ERR`.
    private func hangUpReason(_ failure: NATSError) -> NATSError {
        guard let serverErrorText, let server else { return failure }
        return classify(serverErrorText, from: server)
    }

    private func serverError(_ text: String, from address: NATSServerAddress) -> NATSError {
        classify(visible(text), from: address)
    }

    private func classify(_ shownText: String, from address: NATSServerAddress) -> NATSError {
        shownText.lowercased().contains("authorization violation") ? .authorizationViolation(server: address.description) : .serverError(shownText)
    }

    /// Server text for errors and events: printable ASCII, at most 200 characters, secrets removed.
    private func visible(_ text: String) -> String {
        WebSocketHandshake.redacted(text, limit: 200, secretNames: [], secretValues: credentials.secretValues)
    }

    private var describeServer: String { server?.description ?? "the server" }

    private var elapsed: Duration { ContinuousClock.now - start }

    /// Refused credentials or certificates say more than a refused connection to another server.
    private static func moreTelling(_ error: NATSError, than other: NATSError?) -> NATSError {
        guard let other else { return error }
        return other.isPermanent && !error.isPermanent ? other : error
    }
}
