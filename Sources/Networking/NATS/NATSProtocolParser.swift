import Foundation

/// Reads the NATS client protocol (https://docs.nats.io/reference/reference-protocols/nats-protocol) as
/// a value: bytes in, `NATSFrame`s out. No I/O and no clock, so it is tested byte by byte and fuzzed.
///
/// Incremental: `append` whatever the socket produced (half a control line, three messages and a
/// bit), then call `nextFrame()` until it returns nil. Bounded: a control line may hold at most
/// `maxControlLineSize` bytes (4 KiB, the server's own MAX_CONTROL_LINE_SIZE) or, for INFO, which lists
/// the cluster's URLs, `maxInfoLineSize`; a message's size is checked against `maxPayload` (the server's
/// `max_payload` from INFO) as soon as its control line is in, before its payload is buffered. Either
/// limit is checked the same way whatever the chunking, so a stream fails at the same place however it
/// was split. Malformed input is a `NATSProtocolError`, never a trap; after one, every later call throws
/// the same error.
///
/// What the docs leave implicit and servers do, read here as they do it:
/// - operation names are case-insensitive (`sub foo 1` is `SUB foo 1`);
/// - fields are separated by any run of spaces and tabs: nats-server 2.9 writes `MSG _INBOX.x.2 1  26`,
///   two spaces where a message has no reply subject;
/// - INFO has a space before its CRLF (`INFO {…} \r\n`);
/// - an HMSG's header block may be one line and the blank line: `NATS/1.0 503\r\n\r\n`.
public struct NATSProtocolParser: Sendable {
    /// Whose bytes are read: a client reads what the server sends.
    public enum Peer: Sendable, Hashable {
        case server
        case client
    }

    public static let defaultMaxControlLineSize = 4096
    public static let defaultMaxInfoLineSize = 64 * 1024
    /// nats-server's default `max_payload` (1 MiB), until INFO says otherwise.
    public static let defaultMaxPayload = 1 << 20

    public let peer: Peer
    /// Headers and payload of one message together; the connection sets it from INFO.
    public var maxPayload: Int
    public let maxControlLineSize: Int
    public let maxInfoLineSize: Int

    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// No LF in `buffer[readIndex..<scannedIndex]`: a line arriving in pieces is scanned once.
    private var scannedIndex = 0
    private var failure: NATSProtocolError?

    /// Limits below 64 bytes are raised to 64: every operation but a tiny one needs more.
    public init(
        peer: Peer = .server,
        maxPayload: Int = NATSProtocolParser.defaultMaxPayload,
        maxControlLineSize: Int = NATSProtocolParser.defaultMaxControlLineSize,
        maxInfoLineSize: Int = NATSProtocolParser.defaultMaxInfoLineSize
    ) {
        self.peer = peer
        self.maxPayload = max(0, maxPayload)
        self.maxControlLineSize = max(64, maxControlLineSize)
        self.maxInfoLineSize = max(64, maxInfoLineSize)
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, nil when more bytes are needed. Throws on the first violation, and again
    /// on every later call.
    public mutating func nextFrame() throws(NATSProtocolError) -> NATSFrame? {
        if let failure { throw failure }
        do {
            let frame = try decodeFrame()
            if frame != nil { compactIfWorthwhile() }
            return frame
        } catch {
            failure = error
            throw error
        }
    }

    // MARK: - Control lines

    private mutating func decodeFrame() throws(NATSProtocolError) -> NATSFrame? {
        let limit = lineLimit()
        guard let lineFeed = findLineFeed() else {
            // The CRLF still to come would make the line longer than the limit.
            if buffer.count - readIndex >= limit { throw tooLong(limit) }
            return nil
        }
        guard lineFeed + 1 - readIndex <= limit else { throw tooLong(limit) }
        guard lineFeed > readIndex, buffer[lineFeed - 1] == 0x0D else {
            throw NATSProtocolError("control line \"\(NATSProtocolError.snippet(buffer[readIndex..<lineFeed]))\" ends with LF without CR")
        }
        let line = buffer[readIndex..<(lineFeed - 1)]
        let afterLine = lineFeed + 1
        let operationEnd = line.firstIndex(where: Self.isSeparator) ?? line.endIndex
        let operation = line[..<operationEnd]
        guard !operation.isEmpty else {
            throw NATSProtocolError(line.isEmpty ? "empty control line" : "control line starts with a space: \"\(NATSProtocolError.snippet(line))\"")
        }
        let rest = line[operationEnd...]
        // ASCII case folding only: Unicode's would read `pıng` (dotless i) as PING.
        let name = String(decoding: operation.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)

        switch (name, peer) {
        case ("PING", _), ("PONG", _), ("+OK", .server):
            guard Self.fields(rest).isEmpty else { throw unexpectedArguments(name, rest) }
            consume(upTo: afterLine)
            return name == "PING" ? .ping : name == "PONG" ? .pong : .ok
        case ("-ERR", .server):
            consume(upTo: afterLine)
            return .error(Self.errorText(rest))
        case ("INFO", .server):
            let info = try Self.decodeJSON(NATSServerInfo.self, rest, operation: name)
            consume(upTo: afterLine)
            return .info(info)
        case ("CONNECT", .client):
            let options = try Self.decodeJSON(NATSConnectOptions.self, rest, operation: name)
            consume(upTo: afterLine)
            return .connect(options)
        case ("SUB", .client):
            let fields = Self.fields(rest)
            guard fields.count == 2 || fields.count == 3 else { throw wrongFieldCount(name, fields.count, "2 or 3") }
            consume(upTo: afterLine)
            return .subscribe(subject: Self.text(fields[0]), queueGroup: fields.count == 3 ? Self.text(fields[1]) : nil, sid: Self.text(fields.last!))
        case ("UNSUB", .client):
            let fields = Self.fields(rest)
            guard fields.count == 1 || fields.count == 2 else { throw wrongFieldCount(name, fields.count, "1 or 2") }
            let maxMessages = try fields.count == 2 ? Self.number(fields[1], in: name) : nil
            consume(upTo: afterLine)
            return .unsubscribe(sid: Self.text(fields[0]), maxMessages: maxMessages)
        case ("MSG", .server), ("HMSG", .server), ("PUB", .client), ("HPUB", .client):
            return try decodeMessage(name, fields: Self.fields(rest), payloadStart: afterLine)
        default:
            let side = peer == .server ? "the server" : "a client"
            throw NATSProtocolError("unknown operation \"\(NATSProtocolError.snippet(operation))\" from \(side)")
        }
    }

    /// MSG, HMSG, PUB, HPUB: the sizes are checked at once; nil until the payload and its CRLF are in.
    private mutating func decodeMessage(_ name: String, fields: [ArraySlice<UInt8>], payloadStart: Int) throws(NATSProtocolError) -> NATSFrame? {
        let fromServer = name.hasSuffix("MSG")
        let hasHeaders = name.hasPrefix("H")
        // subject [sid] [reply-to] [#header bytes] #total bytes
        let fixed = 2 + (fromServer ? 1 : 0) + (hasHeaders ? 1 : 0)
        guard fields.count == fixed || fields.count == fixed + 1 else {
            throw wrongFieldCount(name, fields.count, "\(fixed) or \(fixed + 1)")
        }
        let hasReply = fields.count == fixed + 1
        let total = try Self.number(fields[fields.count - 1], in: name)
        let headerSize = try hasHeaders ? Self.number(fields[fields.count - 2], in: name) : 0
        guard headerSize <= total else {
            throw NATSProtocolError("\(name) header size \(headerSize) exceeds its total size \(total)")
        }
        guard total <= maxPayload else {
            throw NATSProtocolError("\(name) of \(total) bytes exceeds the \(maxPayload)-byte max_payload")
        }
        guard buffer.count - payloadStart >= total + 2 else { return nil }
        let payloadEnd = payloadStart + total
        guard buffer[payloadEnd] == 0x0D, buffer[payloadEnd + 1] == 0x0A else {
            throw NATSProtocolError("\(name) payload of \(total) bytes not followed by CRLF")
        }

        let subject = Self.text(fields[0])
        let sid = fromServer ? Self.text(fields[1]) : ""
        let replyTo = hasReply ? Self.text(fields[fromServer ? 2 : 1]) : nil
        let headerBytes = Array(buffer[payloadStart..<(payloadStart + headerSize)])
        let payload = Array(buffer[(payloadStart + headerSize)..<payloadEnd])

        var headers: NATSHeaders?
        if hasHeaders {
            do {
                headers = try NATSHeaders.parse(headerBytes)
            } catch {
                // A client's own headers are its fault: the stream is broken (and nothing consumed).
                guard fromServer else { throw NATSProtocolError("\(name) with unreadable headers: \(error.detail)") }
                consume(upTo: payloadEnd + 2)
                return .malformedMessage(NATSMalformedMessage(
                    subject: subject, sid: sid, replyTo: replyTo, headerBytes: headerBytes, payload: payload, reason: error.detail))
            }
        }
        consume(upTo: payloadEnd + 2)
        if fromServer {
            return .message(NATSMessage(subject: subject, sid: sid, replyTo: replyTo, headers: headers, payload: payload))
        }
        return .publish(subject: subject, replyTo: replyTo, headers: headers, payload: payload)
    }

    // MARK: - Buffer

    private mutating func findLineFeed() -> Int? {
        let from = max(scannedIndex, readIndex)
        let found = buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard from < bytes.count, let base = bytes.baseAddress,
                  let hit = memchr(base + from, 0x0A, bytes.count - from)
            else { return nil }
            return UnsafeRawPointer(hit) - UnsafeRawPointer(base)
        }
        if found == nil { scannedIndex = buffer.count }
        return found
    }

    /// INFO gets the larger limit, known from its first four bytes (case-insensitive, like every name).
    private func lineLimit() -> Int {
        guard buffer.count - readIndex >= 4,
              buffer[readIndex] & 0xDF == 0x49, buffer[readIndex + 1] & 0xDF == 0x4E,
              buffer[readIndex + 2] & 0xDF == 0x46, buffer[readIndex + 3] & 0xDF == 0x4F
        else { return maxControlLineSize }
        return maxInfoLineSize
    }

    private mutating func consume(upTo index: Int) {
        readIndex = index
        scannedIndex = index
    }

    /// Drops consumed bytes once they are at least half the buffer, so appends stay amortized O(1) and a
    /// long-lived connection does not keep everything it ever received.
    private mutating func compactIfWorthwhile() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            readIndex = 0
            scannedIndex = 0
        } else if readIndex >= 4096, readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            scannedIndex -= readIndex
            readIndex = 0
        }
    }

    // MARK: - Fields

    private static func isSeparator(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    private static func fields(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: isSeparator)
    }

    /// Tokens that are not UTF-8 become U+FFFD rather than an error: a subject is whatever a publisher
    /// wrote, and a server does not check it.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// 1 to 10 ASCII digits: no sign, no spaces, nothing that could overflow.
    private static func number(_ bytes: ArraySlice<UInt8>, in operation: String) throws(NATSProtocolError) -> Int {
        guard (1...10).contains(bytes.count), bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw NATSProtocolError("\(operation) size \"\(NATSProtocolError.snippet(bytes))\" is not a number")
        }
        return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `-ERR 'Authorization Violation'`: the text between the quotes (the server always quotes it).
    private static func errorText(_ rest: ArraySlice<UInt8>) -> String {
        var text = rest.drop(while: isSeparator)
        while let last = text.last, isSeparator(last) { text.removeLast() }
        if text.count >= 2, text.first == 0x27, text.last == 0x27 { text = text.dropFirst().dropLast() }
        return String(decoding: text, as: UTF8.self)
    }

    private static func decodeJSON<Value: Decodable>(_ type: Value.Type, _ bytes: ArraySlice<UInt8>, operation: String) throws(NATSProtocolError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch {
            throw NATSProtocolError("\(operation) is not the expected JSON object: \"\(NATSProtocolError.snippet(bytes.drop(while: isSeparator)))\"")
        }
    }

    private func tooLong(_ limit: Int) -> NATSProtocolError {
        NATSProtocolError("control line \"\(NATSProtocolError.snippet(buffer[readIndex...], limit: 16))\" longer than \(limit) bytes")
    }

    private func unexpectedArguments(_ name: String, _ rest: ArraySlice<UInt8>) -> NATSProtocolError {
        NATSProtocolError("\(name) takes no arguments, got \"\(NATSProtocolError.snippet(rest.drop(while: Self.isSeparator)))\"")
    }

    private func wrongFieldCount(_ name: String, _ count: Int, _ expected: String) -> NATSProtocolError {
        NATSProtocolError("\(name) with \(count) fields, expected \(expected)")
    }
}
