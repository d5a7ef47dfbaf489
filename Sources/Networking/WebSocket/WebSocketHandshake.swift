import Foundation

/// The HTTP/1.1 upgrade of RFC 6455 §4 as values: the request to send and the checks on the answer.
/// No I/O; the key bytes are injected.
public struct WebSocketHandshake: Sendable {
    /// RFC 6455 §1.3: appended to the key before hashing, proving the server speaks WebSocket.
    public static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// A response head larger than this is not a WebSocket server talking.
    public static let maxResponseHeadSize = 16 * 1024

    /// Headers the handshake itself owns; callers' values for them are ignored.
    private static let reservedHeaderNames: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions", "content-length",
    ]

    /// An HTTP response head: status line and headers (names lowercased, repeated headers joined with ", ").
    public struct Response: Sendable, Hashable {
        public var status: Int
        public var reasonPhrase: String
        public var headers: [String: String]

        public init(status: Int, reasonPhrase: String, headers: [String: String]) {
            self.status = status
            self.reasonPhrase = reasonPhrase
            self.headers = headers
        }

        public func header(_ name: String) -> String? { headers[name.lowercased()] }

        public var contentLength: Int? { header("content-length").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } }
    }

    public let endpoint: WebSocketEndpoint
    /// The base64 of 16 random bytes, sent as `Sec-WebSocket-Key`.
    public let key: String
    public let headers: [String: String]

    /// Fails for a URL that is not ws/wss, a key that is not 16 bytes, or a header that would break the
    /// request (a line break in a name or value). Header values never appear in the error.
    public init(url: URL, headers: [String: String] = [:], keyBytes: [UInt8]) throws(WebSocketError) {
        guard let endpoint = WebSocketEndpoint(url: url) else {
            throw .handshakeFailed(status: 0, reason: "not a ws:// or wss:// URL with a host")
        }
        guard keyBytes.count == 16 else { throw .handshakeFailed(status: 0, reason: "Sec-WebSocket-Key needs 16 bytes") }
        for (name, value) in headers {
            guard !name.isEmpty, !name.contains(where: { $0 == ":" || $0.isWhitespace || $0.isNewline }) else {
                throw .handshakeFailed(status: 0, reason: "invalid header name \(name.debugDescription)")
            }
            guard !value.contains(where: \.isNewline) else {
                throw .handshakeFailed(status: 0, reason: "header \(name) contains a line break")
            }
        }
        self.endpoint = endpoint
        self.key = Data(keyBytes).base64EncodedString()
        self.headers = headers
    }

    /// base64(SHA-1(key + GUID)): what the server must answer in `Sec-WebSocket-Accept`.
    public static func acceptValue(forKey key: String) -> String {
        Data(SHA1.digest(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    public var expectedAccept: String { Self.acceptValue(forKey: key) }

    /// The upgrade request. Extra headers follow the handshake's own, sorted by name so the bytes are
    /// reproducible.
    public var requestText: String {
        var lines = [
            "GET \(endpoint.requestTarget) HTTP/1.1",
            "Host: \(endpoint.hostHeader)",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
        ]
        for (name, value) in headers.sorted(by: { $0.key.lowercased() < $1.key.lowercased() })
        where !Self.reservedHeaderNames.contains(name.lowercased()) {
            lines.append("\(name): \(value)")
        }
        return lines.joined(separator: "\r\n") + "\r\n\r\n"
    }

    public var requestBytes: [UInt8] { Array(requestText.utf8) }

    /// Splits a response head off the front of `bytes`: nil while the blank line that ends it has not
    /// arrived. Whatever follows the head is returned as `rest`: the first frame bytes after a 101, the
    /// body's beginning otherwise. `secretNames` and `secretValues` are removed from the error for an
    /// answer that is not HTTP, which may echo the request line and its credentials.
    public static func parseResponse(
        _ bytes: [UInt8], secretNames: Set<String> = [], secretValues: [String] = []
    ) throws(WebSocketError) -> (response: Response, rest: [UInt8])? {
        guard let headEnd = headEnd(in: bytes) else {
            guard bytes.count <= maxResponseHeadSize else {
                throw .protocolViolation("upgrade response head longer than \(maxResponseHeadSize) bytes")
            }
            return nil
        }
        let statusLineEnd = (0..<headEnd).first { bytes[$0] == 13 && bytes[$0 + 1] == 10 } ?? headEnd
        guard let (status, reason) = statusLine(bytes[..<statusLineEnd]) else {
            // Redacted: a peer that echoes what it got (a TCP echo, a misrouted proxy) sends back the request
            // line with a token in its query. Found by Fuzz/WebSocketHandshakeFuzzer.swift.
            let line = String(decoding: bytes[..<statusLineEnd], as: UTF8.self)
            let shown = redacted(line, limit: 40, secretNames: secretNames, secretValues: secretValues)
            throw .protocolViolation("not an HTTP/1.1 status line: \(shown.debugDescription)")
        }
        let head = String(decoding: bytes[statusLineEnd..<headEnd], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw .protocolViolation("malformed header line in the upgrade response")
            }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers[name] = headers[name].map { "\($0), \(value)" } ?? value
        }
        return (Response(status: status, reasonPhrase: reason, headers: headers), Array(bytes[(headEnd + 4)...]))
    }

    /// Checks a 101 answer (RFC 6455 §4.1, the client's checks 1–6). A non-101 answer becomes
    /// `.handshakeFailed` with a reason from the status line and the start of the body, sanitized and
    /// with `secretValues` removed.
    public func validate(_ response: Response, body: [UInt8] = [], secretNames: Set<String> = [], secretValues: [String] = []) throws(WebSocketError) {
        guard response.status == 101 else {
            throw .handshakeFailed(
                status: response.status,
                reason: Self.failureReason(response, body: body, secretNames: secretNames, secretValues: secretValues)
            )
        }
        guard let upgrade = response.header("upgrade"), Self.tokens(upgrade).contains("websocket") else {
            throw .protocolViolation("upgrade response lacks \"Upgrade: websocket\"")
        }
        guard let connection = response.header("connection"), Self.tokens(connection).contains("upgrade") else {
            throw .protocolViolation("upgrade response lacks \"Connection: Upgrade\"")
        }
        guard let accept = response.header("sec-websocket-accept") else {
            throw .protocolViolation("upgrade response lacks Sec-WebSocket-Accept")
        }
        guard accept == expectedAccept else {
            throw .protocolViolation("Sec-WebSocket-Accept does not match the key sent")
        }
        // We offered no extension and no subprotocol, so the server may not pick one (§4.1 checks 5, 6).
        if let extensions = response.header("sec-websocket-extensions"), !extensions.isEmpty {
            let shown = Self.redacted(extensions, limit: 40, secretNames: secretNames, secretValues: secretValues)
            throw .protocolViolation("server enabled an extension that was not offered (\(shown))")
        }
        if let subprotocol = response.header("sec-websocket-protocol"), !subprotocol.isEmpty,
           headers.first(where: { $0.key.lowercased() == "sec-websocket-protocol" }) == nil {
            throw .protocolViolation("server chose a subprotocol that was not offered")
        }
    }

    /// A footer-sized reason for a refused upgrade: "Unauthorized: invalid token" from a reason phrase
    /// and a body, printable ASCII only, secrets removed, at most `limit` characters.
    public static func failureReason(_ response: Response, body: [UInt8], secretNames: Set<String> = [], secretValues: [String] = [], limit: Int = 120) -> String {
        var reason = response.reasonPhrase.trimmingCharacters(in: .whitespaces)
        let bodyText = sanitized(String(decoding: body.prefix(1024), as: UTF8.self), limit: 1024)
        if !bodyText.isEmpty, bodyText.lowercased() != reason.lowercased() {
            reason = reason.isEmpty ? bodyText : "\(reason): \(bodyText)"
        }
        let redacted = Redaction.text(sanitized(reason, limit: 1024), secretNames: secretNames, secretValues: secretValues)
        return redacted.count > limit ? String(redacted.prefix(limit - 1)) + "…" : redacted
    }

    /// Server text for an error message: sanitized, secrets removed before it is cut to `limit`, so a cut
    /// cannot leave the start of a secret that redaction no longer recognizes.
    static func redacted(_ text: String, limit: Int, secretNames: Set<String>, secretValues: [String]) -> String {
        let redacted = Redaction.text(sanitized(text, limit: 1024), secretNames: secretNames, secretValues: secretValues)
        return String(redacted.prefix(limit))
    }

    /// Control characters and anything outside printable ASCII become spaces, runs of spaces one, so a
    /// hostile server cannot paint on the terminal through an error message.
    static func sanitized(_ text: String, limit: Int) -> String {
        var result = ""
        var lastWasSpace = true
        for scalar in text.unicodeScalars.prefix(limit * 4) {
            let printable = scalar.value >= 0x21 && scalar.value < 0x7F
            if printable {
                result.unicodeScalars.append(scalar)
                lastWasSpace = false
            } else if !lastWasSpace {
                result.append(" ")
                lastWasSpace = true
            }
            if result.count >= limit { break }
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    /// The status code and reason of `HTTP/1.1 SP 3DIGIT SP reason` (RFC 9112 §4), read as bytes: split as a
    /// decoded String, a space followed by a combining mark is one `Character` and no separator, so
    /// "HTTP/1.1o/v2/i \u{301} 101 …" read as status 101 (found by Fuzz/WebSocketHandshakeFuzzer.swift).
    /// "HTTP/1.1 401" without the SP before an empty reason is taken too: nothing is ambiguous without it.
    /// The reason may hold no control character but HTAB (RFC 9112's reason-phrase).
    static func statusLine(_ line: ArraySlice<UInt8>) -> (status: Int, reason: String)? {
        let version = Array("HTTP/1.1 ".utf8)
        guard line.starts(with: version) else { return nil }
        let digits = line.dropFirst(version.count).prefix(3)
        guard digits.count == 3, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        let afterDigits = line.dropFirst(version.count + 3)
        guard afterDigits.isEmpty || afterDigits.first == UInt8(ascii: " ") else { return nil }
        // reason-phrase = *( HTAB / SP / VCHAR / obs-text ): no other control characters.
        guard afterDigits.allSatisfy({ $0 == 9 || ($0 >= 0x20 && $0 != 0x7F) }) else { return nil }
        let status = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        return (status, String(decoding: afterDigits.dropFirst(), as: UTF8.self))
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func tokens(_ value: String) -> [String] {
        value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }
}
