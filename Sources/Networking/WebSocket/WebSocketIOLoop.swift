import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of a connection's I/O thread: connects, upgrades, then loops on poll() until the connection
/// ends. Everything here runs on that one thread (see `LiveWebSocketConnection` for the model), except
/// the paced reads that a `WebSocketSlotReader` makes at their slots: from the upgrade on, the state is
/// used under `gate` only, which the I/O thread lets go of while it sleeps in poll().
final class WebSocketIOLoop: @unchecked Sendable {
    private enum Phase: Equatable {
        case open
        /// A close frame is queued or sent. `awaitingPeerClose`: we started the handshake and wait for
        /// the server's answer; otherwise we only flush what is queued (our echo, or our error close).
        case closing(deadline: ContinuousClock.Instant, awaitingPeerClose: Bool)
        case done
    }

    private let configuration: LiveWebSocketConnector.Options
    private let handshake: WebSocketHandshake
    private let endpointDescription: String
    private let secretNames: Set<String>
    private let secretValues: [String]
    private let channel: WebSocketIOChannel
    private let messages: WebSocketMessages.Continuation
    private var codec: WebSocketFrameCodec
    private var assembler: WebSocketMessageAssembler
    private var heartbeat: WebSocketHeartbeat
    private let start = ContinuousClock.now

    private var transport: (any WebSocketTransport)?
    private var phase = Phase.open
    private var outbox = WebSocketOutbox<WebSocketIOChannel.Completion>()
    private var closeReceived = false
    /// When bytes last arrived: read pacing allows one read per frame after it.
    private var lastRead: ContinuousClock.Instant?
    /// The last paced slot at which bytes were read (`WebSocketReadPacing.readSlot`'s `lastSlot`).
    private var lastSlot: ContinuousClock.Instant?
    private var ending = WebSocketEnding()
    /// The messages of the bytes being read, handed to the session together when the read is done: one
    /// wake-up for the session per read, where yielding each woke it, or raced it, once per message.
    private var readMessages: [WebSocketMessage] = []
    /// What the socket must become before a stalled read or write can continue (TLS may need either).
    private var readWait = WebSocketTransportWait.readable
    private var writeWait = WebSocketTransportWait.writable
    private static let readChunkSize = 64 * 1024
    /// 8 MiB: more than a socket's receive buffer holds by default on Linux (tcp_rmem's maximum is
    /// 6 MiB), so everything the peer sent before a reset is read, yet a live peer still flooding us
    /// cannot keep a failed connection's thread reading forever.
    private static let readsAfterFailedWrite = 128
    private let readBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: WebSocketIOLoop.readChunkSize, alignment: 1)
    /// Held by whoever uses the state below once serving: the I/O thread, or the slot reader.
    private let gate = Locked(())
    private let slotReader: WebSocketSlotReader?
    /// The slot given to `slotReader`, while it holds this connection's reads.
    private var slotGiven: ContinuousClock.Instant?
    /// Set while the slot reader reads: the messages wait in `readMessages` until it hands over every
    /// connection's together (`deliverHeldMessages`).
    private var holdsDeliveries = false

    init(configuration: LiveWebSocketConnection.Configuration, channel: WebSocketIOChannel, messages: WebSocketMessages.Continuation) {
        self.configuration = configuration.options
        handshake = configuration.handshake
        endpointDescription = "\(configuration.handshake.endpoint.host):\(configuration.handshake.endpoint.port)"
        secretNames = configuration.secretNames
        secretValues = configuration.secretValues
        self.channel = channel
        self.messages = messages
        codec = WebSocketFrameCodec(role: .client, maxFrameSize: configuration.options.maxFrameSize, maskingKeySource: configuration.maskingKeySource)
        assembler = WebSocketMessageAssembler(maxMessageSize: configuration.options.maxMessageSize)
        heartbeat = WebSocketHeartbeat(pingAfter: configuration.options.pingAfterIdle, pongTimeout: configuration.options.pongTimeout)
        slotReader = configuration.options.readPacing == nil ? nil : configuration.options.slotReader
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Connects and upgrades, reports the outcome through `established`, then serves the connection
    /// until it ends.
    func run(established: (Result<Void, WebSocketError>) -> Void) {
        PipeSignal.blockOnThisThread()

        let firstFrameBytes: [UInt8]
        do {
            firstFrameBytes = try establish()
        } catch {
            record(.failed(error))
            transport = nil
            tearDown()
            established(.failure(error))
            return
        }
        established(.success(()))
        serve(over: transport!, firstFrameBytes: firstFrameBytes)
    }

    /// Serves an upgraded connection until it ends, then tears it down. `run` calls it after the
    /// upgrade; tests call it directly with a scripted transport, to replay races deterministically.
    func serve(over transport: any WebSocketTransport, firstFrameBytes: [UInt8]) {
        gate.withLock { _ in
            self.transport = transport
            heartbeat = WebSocketHeartbeat(pingAfter: configuration.pingAfterIdle, pongTimeout: configuration.pongTimeout, now: elapsed)
            if !firstFrameBytes.isEmpty { received(firstFrameBytes[...]) }
        }
        serve()
        gate.withLock { _ in
            takeReadsBack()
            tearDown()
        }
    }

    // MARK: - Connecting

    /// TCP, TLS, the upgrade. Returns the bytes that followed the 101 response (the first frames).
    private func establish() throws(WebSocketError) -> [UInt8] {
        let endpoint = handshake.endpoint
        let tcp = try TCPTransport.connect(
            host: endpoint.host,
            port: endpoint.port,
            deadline: .now + configuration.connectTimeout,
            timeoutDescription: "connecting to \(endpointDescription) took longer than \(Self.describe(configuration.connectTimeout))",
            wakePipe: channel.wakePipe,
            isCancelled: { channel.isConnectCancelled }
        )
        let deadline = ContinuousClock.now + configuration.handshakeTimeout
        let timeoutDescription = "no WebSocket upgrade from \(endpointDescription) within \(Self.describe(configuration.handshakeTimeout))"
        if endpoint.usesTLS {
            let tls = try TLSTransport(over: tcp, endpoint: endpoint, caFile: configuration.extraCAFile, allowInsecure: configuration.allowInsecureTLS)
            transport = tls
            try tls.handshake(deadline: deadline, timeoutDescription: timeoutDescription, wakePipe: channel.wakePipe, isCancelled: { channel.isConnectCancelled })
        } else {
            transport = tcp
        }

        var request = handshake.requestBytes[...]
        while !request.isEmpty {
            let progress = try request.withUnsafeBytes { bytes in Result { () throws(WebSocketError) in try transport!.write(bytes) } }.get()
            switch progress {
            case .transferred(let count): request = request.dropFirst(count)
            case .wouldBlock(let wait): try waitDuringHandshake(for: wait, until: deadline, timeoutDescription: timeoutDescription)
            case .closed: throw .network("\(endpointDescription) closed the connection during the upgrade")
            }
        }

        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            if let (response, rest) = try WebSocketHandshake.parseResponse(received, secretNames: secretNames, secretValues: secretValues) {
                var body = rest
                if response.status != 101 {
                    body += readRefusalBody(response: response, alreadyRead: rest.count, deadline: min(deadline, .now + .seconds(1)))
                }
                try handshake.validate(response, body: body, secretNames: secretNames, secretValues: secretValues)
                return rest
            }
            switch try chunk.withUnsafeMutableBytes({ bytes in Result { () throws(WebSocketError) in try transport!.read(into: bytes) } }).get() {
            case .transferred(let count): received += chunk[..<count]
            case .wouldBlock(let wait): try waitDuringHandshake(for: wait, until: deadline, timeoutDescription: timeoutDescription)
            case .closed: throw .network("\(endpointDescription) closed the connection during the upgrade")
            }
        }
    }

    /// The start of a refusal's body (up to its Content-Length, at most 4 KiB), for the error message:
    /// brokers explain a 401 or 403 there. Best effort: whatever arrived by `deadline`.
    private func readRefusalBody(response: WebSocketHandshake.Response, alreadyRead: Int, deadline: ContinuousClock.Instant) -> [UInt8] {
        guard let length = response.contentLength, length > alreadyRead else { return [] }
        let wanted = min(length, 4096) - alreadyRead
        var body: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while body.count < wanted {
            guard let progress = try? chunk.withUnsafeMutableBytes({ bytes in Result { () throws(WebSocketError) in try transport!.read(into: bytes) } }).get() else { break }
            switch progress {
            case .transferred(let count): body += chunk[..<count]
            case .wouldBlock(let wait):
                guard (try? waitDuringHandshake(for: wait, until: deadline, timeoutDescription: "")) != nil else { return body }
            case .closed: return body
            }
        }
        return Array(body.prefix(wanted))
    }

    private func waitDuringHandshake(for wait: WebSocketTransportWait, until deadline: ContinuousClock.Instant, timeoutDescription: String) throws(WebSocketError) {
        guard let transport else { return }
        let readiness = WebSocketPoller.wait(socket: transport.descriptor, for: [wait], wakeDescriptor: channel.wakePipe.readDescriptor, until: deadline)
        if readiness.woken {
            channel.wakePipe.drain()
            if channel.isConnectCancelled { throw .network("connection cancelled") }
        }
        if !readiness.readable, !readiness.writable, !readiness.failed, ContinuousClock.now >= deadline {
            throw .timedOut(timeoutDescription)
        }
    }

    // MARK: - Serving

    /// What one turn of `serve` sleeps on.
    private struct Wait {
        enum Reads {
            /// As bytes come.
            case onArrival
            /// Held for this slot, when this thread reads them.
            case atSlot(ContinuousClock.Instant)
            /// Held, and the slot reader makes the read.
            case bySlotReader
        }

        var descriptor: Int32
        var wanted: Set<WebSocketTransportWait>
        var deadline: ContinuousClock.Instant?
        var reads: Reads
    }

    private func serve() {
        while let wait = gate.withLock({ _ in prepareWait() }) {
            let readiness = WebSocketPoller.wait(socket: wait.descriptor, for: wait.wanted, wakeDescriptor: channel.wakePipe.readDescriptor, until: wait.deadline)
            gate.withLock { _ in finishWait(wait, readiness) }
        }
    }

    /// The first half of a turn: requests in, writes out, then what to sleep on; nil once done.
    private func prepareWait() -> Wait? {
        guard phase != .done, let transport else { return nil }
        takeRequests()
        flushWrites()
        finishClosingIfFlushed()
        guard phase != .done else { return nil }

        // Holding reads leaves the bytes in the kernel's buffer (or TLS's) until the slot; a hang-up
        // still wakes the poll, and reading then tells what happened.
        let hold = phase == .open ? readSlotNow() : nil
        var wanted: Set<WebSocketTransportWait> = hold == nil ? [readWait] : []
        if !outbox.isEmpty { wanted.insert(writeWait) }
        if let hold, let slotReader {
            // The slot reader reads at the slot, with every other connection's; this thread sleeps until
            // a send, a deadline or a hang-up, or until the reader leaves it work.
            if slotGiven != hold { slotReader.schedule(self, at: hold) }
            slotGiven = hold
            return Wait(descriptor: transport.descriptor, wanted: wanted, deadline: nextDeadline(), reads: .bySlotReader)
        }
        takeReadsBack()
        if let hold {
            let deadline = nextDeadline().map { min($0, hold) } ?? hold
            return Wait(descriptor: transport.descriptor, wanted: wanted, deadline: deadline, reads: .atSlot(hold))
        }
        return Wait(descriptor: transport.descriptor, wanted: wanted, deadline: transport.hasBufferedInput ? .now : nextDeadline(), reads: .onArrival)
    }

    /// This thread reads again from now on: the slot given to the reader, if any, is withdrawn.
    private func takeReadsBack() {
        guard slotGiven != nil else { return }
        slotReader?.withdraw(self)
        slotGiven = nil
    }

    /// The second half of a turn: reads if it is time, then the deadlines.
    private func finishWait(_ wait: Wait, _ readiness: WebSocketPoller.Readiness) {
        guard phase != .done, let transport else { return }
        let hold: ContinuousClock.Instant?
        switch wait.reads {
        case .bySlotReader:
            if readiness.failed { readAvailable() }
            checkDeadlines()
            return
        case .atSlot(let slot): hold = slot
        case .onArrival: hold = nil
        }
        // At the slot, read straight away rather than poll again first: the bytes are there. Unless
        // the slot moved while this thread slept: the frame before drew later than foreseen, and
        // reading before the slot it moved to would leave what lands in between for a frame later.
        var slotReached = hold.map { ContinuousClock.now >= $0 } ?? false
        if slotReached, !readiness.failed, let moved = readSlotNow(), moved > ContinuousClock.now {
            slotReached = false
        }
        if readiness.failed || slotReached || (hold == nil && (readiness.readable || readiness.writable || transport.hasBufferedInput)) {
            let readBefore = lastRead
            readAvailable()
            if slotReached, lastRead != readBefore { lastSlot = hold }
        }
        checkDeadlines()
    }

    // MARK: - Reads at a slot, on the slot reader's thread

    /// The slot reader's read at `slot`, as `finishWait` makes it at a held slot on this thread. Then the
    /// next slot goes back to the reader, or, when the read left work here (a pong or close to write, an
    /// end, no further slot), this thread is woken for it. The messages wait for `deliverHeldMessages`.
    func readAtSlot(_ slot: ContinuousClock.Instant, for reader: WebSocketSlotReader) {
        let wake = gate.withLock { _ -> Bool in
            // Taken back since (the thread woke and found no slot), or ended.
            guard slotGiven == slot, phase == .open, transport != nil else { return false }
            slotGiven = nil
            if let moved = readSlotNow(), moved > ContinuousClock.now {
                slotGiven = moved
                reader.schedule(self, at: moved)
                return false
            }
            let readBefore = lastRead
            holdsDeliveries = true
            readAvailable()
            holdsDeliveries = false
            if lastRead != readBefore { lastSlot = slot }
            if phase == .open, outbox.isEmpty, let next = readSlotNow() {
                slotGiven = next
                reader.schedule(self, at: next)
                return false
            }
            return true
        }
        if wake { channel.wakePipe.wake() }
    }

    /// The slot reader's second look after the frames resumed (`WebSocketSlotReader.slotsMayHaveMoved`):
    /// when the slot is now earlier than the one given the reader, the reader gets the earlier one (now,
    /// if it has passed). A later one is found at the read, as ever.
    func reviewSlot(for reader: WebSocketSlotReader) {
        gate.withLock { _ in
            guard let given = slotGiven, phase == .open, transport != nil else { return }
            let now = ContinuousClock.now
            let slot = readSlotNow() ?? now
            guard slot < given else { return }
            slotGiven = slot
            reader.schedule(self, at: slot)
        }
    }

    /// Hands over what `readAtSlot` read.
    func deliverHeldMessages() {
        gate.withLock { _ in deliverReadMessages() }
    }

    private func readSlotNow() -> ContinuousClock.Instant? {
        configuration.readPacing?.readSlot(lastRead: lastRead, lastSlot: lastSlot, now: .now)
    }

    private func nextDeadline() -> ContinuousClock.Instant? {
        switch phase {
        case .open: heartbeat.nextDeadline.map { start + $0 }
        case .closing(let deadline, _): deadline
        case .done: nil
        }
    }

    private func takeRequests() {
        for request in channel.takeRequests() {
            switch request {
            case .send(let bytes, let completion):
                // Accepted by the channel before a close that started here (the peer's close, a
                // protocol error) made it refuse sends: refused now, never written after the close.
                outbox.appendData(bytes, completion: completion)?.resume(returning: .failure(Self.closingError))
            case .close(let frame):
                guard phase == .open else { continue }
                queue(.close(frame))
                phase = .closing(deadline: .now + configuration.closeTimeout, awaitingPeerClose: true)
            }
        }
    }

    /// Reads until the socket has nothing more, or `limit` chunks (so a flood cannot starve writes and
    /// deadlines).
    private func readAvailable(limit: Int = 16) {
        var chunks = 0
        while chunks != limit {
            chunks += 1
            guard phase != .done, let transport else { return }
            do {
                switch try transport.read(into: readBuffer) {
                case .transferred(let count):
                    readWait = .readable
                    lastRead = .now
                    heartbeat.received(at: elapsed)
                    received(UnsafeRawBufferPointer(rebasing: readBuffer[..<count])[...])
                case .wouldBlock(let wait):
                    readWait = wait
                    return
                case .closed:
                    peerHungUp()
                    return
                }
            } catch {
                if case .network = error { peerHungUp() } else { fail(error) }
                return
            }
        }
    }

    private func received(_ bytes: some Collection<UInt8>) {
        codec.append(bytes)
        defer { if !holdsDeliveries { deliverReadMessages() } }
        do {
            while phase != .done, let frame = try codec.nextFrame() {
                // Nothing may follow a close frame (RFC 6455 §5.5.1).
                guard !closeReceived, let event = try assembler.push(frame) else { continue }
                handle(event)
            }
        } catch {
            violated(error)
        }
    }

    private func deliverReadMessages() {
        guard !readMessages.isEmpty else { return }
        // Each was taken before the end was reported (`report` hands them over first).
        messages.yield(contentsOf: readMessages)
        readMessages.removeAll(keepingCapacity: true)
    }

    private func handle(_ event: WebSocketMessageAssembler.Event) {
        switch event {
        case .message(let message):
            if !ending.isReported { readMessages.append(message) }
        case .ping(let payload):
            if phase == .open { queue(WebSocketFrame(opcode: .pong, payload: payload)) }
        case .pong:
            break
        case .close(let close):
            closeReceived = true
            peerClosed(close)
        }
    }

    /// The server's close frame: the answer to ours, or its own decision, which we echo (§5.5.1). A
    /// normal closure (or none given) ends `messages` cleanly; any other code is an error for the broker.
    private func peerClosed(_ close: WebSocketCloseFrame) {
        switch phase {
        case .open:
            channel.stopAcceptingSends()
            // Redacted before it is cut: a secret split by the cut would no longer be recognised.
            let reason = WebSocketHandshake.redacted(close.reason, limit: 120, secretNames: secretNames, secretValues: secretValues)
            record(.peerClosed(code: close.code, reason: reason))
            queue(.close(WebSocketCloseFrame(code: close.code)))
            phase = .closing(deadline: .now + configuration.closeTimeout, awaitingPeerClose: false)
        case .closing(_, awaitingPeerClose: true):
            phase = .done
        case .closing, .done:
            break
        }
    }

    /// The peer broke the protocol: say why in a close frame (1002, 1007 or 1009), then hang up.
    private func violated(_ error: WebSocketProtocolError) {
        channel.stopAcceptingSends()
        record(.protocolViolation(error.detail))
        guard phase == .open else {
            phase = .done
            return
        }
        queue(.close(WebSocketCloseFrame(code: error.closeCode, reason: error.detail)))
        phase = .closing(deadline: .now + configuration.closeTimeout, awaitingPeerClose: false)
    }

    /// EOF or a reset. Expected once a close handshake is under way; otherwise the connection was lost,
    /// possibly in the middle of a frame.
    private func peerHungUp() {
        if case .open = phase { record(.failed(.network("connection lost"))) }
        phase = .done
    }

    private func fail(_ error: WebSocketError) {
        record(.failed(error))
        phase = .done
    }

    /// A write failed, which ends the connection. This is where the writer races the reader: poll() may
    /// have woken us for a send while the peer's last words (a close frame with an auth-failure code, a
    /// frame that breaks the protocol) were arriving, followed by a reset; writes come before reads in
    /// each turn of `serve`, so the write fails on the reset with the peer's words still unread in the
    /// kernel's buffer. They are read now, without waiting for more, and `WebSocketEnding` lets them
    /// outrank the write failure.
    private func writeFailed(_ error: WebSocketError) {
        // As in `peerHungUp`: a reset is expected once a close handshake is under way.
        let expected = if case .network = error { phase != .open } else { false }
        if !expected { record(.failed(error)) }
        readAvailable(limit: Self.readsAfterFailedWrite)
        phase = .done
    }

    /// Queues a control frame. A close frame displaces the data frames not yet begun (see
    /// `WebSocketOutbox`): their senders learn the message was not sent.
    private func queue(_ frame: WebSocketFrame) {
        if frame.opcode == .close {
            for completion in outbox.startClose(codec.encode(frame)) {
                completion.resume(returning: .failure(Self.closingError))
            }
        } else {
            outbox.appendControl(codec.encode(frame))
        }
    }

    static let closingError = WebSocketError.network("connection closing; message not sent")

    private func flushWrites() {
        while phase != .done, let transport, let unwritten = outbox.unwritten {
            do {
                let progress = try unwritten.withUnsafeBytes { bytes in
                    Result { () throws(WebSocketError) in try transport.write(bytes) }
                }.get()
                switch progress {
                case .transferred(let count):
                    writeWait = .writable
                    outbox.wrote(count)?.resume(returning: .success(()))
                case .wouldBlock(let wait):
                    writeWait = wait
                    return
                case .closed:
                    writeFailed(.network("connection lost"))
                }
            } catch {
                writeFailed(error)
            }
        }
    }

    /// Our echo or error close is on the wire: nothing is left to wait for.
    private func finishClosingIfFlushed() {
        if case .closing(_, awaitingPeerClose: false) = phase, outbox.isEmpty { phase = .done }
    }

    private func checkDeadlines() {
        switch phase {
        case .open:
            switch heartbeat.action(at: elapsed) {
            case .none: break
            case .sendPing: queue(WebSocketFrame(opcode: .ping))
            case .timedOut:
                let silence = (configuration.pingAfterIdle ?? .zero) + configuration.pongTimeout
                fail(.timedOut("no data from \(endpointDescription) for \(Self.describe(silence))"))
            }
        case .closing(let deadline, _):
            if ContinuousClock.now >= deadline { phase = .done }
        case .done:
            break
        }
    }

    // MARK: - Ending

    private func record(_ cause: WebSocketEnding.Cause) {
        if let outcome = ending.record(cause) { report(outcome) }
    }

    private func report(_ outcome: WebSocketEnding.Outcome) {
        // The messages before the end go first.
        deliverReadMessages()
        switch outcome {
        case .finished: messages.finish()
        case .failed(let error): messages.finish(throwing: error)
        }
    }

    /// Closes the socket, ends `messages` (unless the peer's word already did: see `WebSocketEnding`),
    /// fails sends that never reached the kernel and releases everyone waiting in `close`.
    private func tearDown() {
        phase = .done
        if closeReceived || !outbox.isEmpty { transport?.shutdown() }
        transport = nil
        if let outcome = ending.conclude() { report(outcome) }
        let (unserved, closeWaiters) = channel.end()
        for completion in outbox.removeAll() { completion.resume(returning: .failure(.network("connection closed"))) }
        for case .send(_, let completion) in unserved { completion.resume(returning: .failure(.network("connection closed"))) }
        for waiter in closeWaiters { waiter.resume() }
    }

    private var elapsed: Duration { ContinuousClock.now - start }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration.secondsValue
        return seconds == seconds.rounded() ? "\(Int(seconds))s" : "\((seconds * 100).rounded() / 100)s"
    }
}
