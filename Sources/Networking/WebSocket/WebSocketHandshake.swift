import Foundation

/// The HTTP/1.1 upgrade (RFC 6455 §4): the request a client sends and the checks on the server's answer.
/// Pure: the transport writes `request` and feeds back what it reads.
public struct WebSocketHandshake: Sendable {
    /// §1.3: appended to the key before hashing.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    public let url: URL
    /// Base64 of 16 random bytes (the caller draws them; tests fix them).
    public let key: String
    public let headers: [String: String]

    public init(url: URL, keyBytes: [UInt8], headers: [String: String] = [:]) {
        self.url = url
        self.key = Data(keyBytes).base64EncodedString()
        self.headers = headers
    }

    /// The accept value a server must send back for `key`.
    public static func acceptValue(for key: String) -> String {
        Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
    }

    /// The upgrade request's bytes. The Host header carries the port only when it is not the scheme's default.
    public var request: [UInt8] {
        let secure = url.scheme?.lowercased() == "wss" || url.scheme?.lowercased() == "https"
        let host = url.host ?? ""
        let hostHeader = host.contains(":") ? "[\(host)]" : host
        let port = url.port.map { ($0 == (secure ? 443 : 80)) ? "" : ":\($0)" } ?? ""
        var target = url.path.isEmpty ? "/" : URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery { target += "?" + query }
        var lines = [
            "GET \(target) HTTP/1.1",
            "Host: \(hostHeader)\(port)",
            "Upgrade: websocket",
            "Connection: Upgrade",
            "Sec-WebSocket-Key: \(key)",
            "Sec-WebSocket-Version: 13",
        ]
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            // Header injection is impossible by construction: CR and LF never reach the wire. Filter scalars,
            // not Characters: "\r\n" is one Character, equal to neither "\r" nor "\n".
            let clean = { (text: String) in
                String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" }))
            }
            lines.append("\(clean(name)): \(clean(value))")
        }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    public enum Outcome: Sendable, Hashable {
        /// More bytes are needed to see the whole response head.
        case incomplete
        /// Upgraded; `leftover` are bytes after the head: the first frames.
        case upgraded(leftover: [UInt8])
    }

    /// Checks the server's answer (§4.1): status 101, `Upgrade: websocket`, `Connection: Upgrade` and the
    /// accept value, header names and tokens case-insensitive. Anything else fails with a short reason.
    public func validate(response bytes: [UInt8], maxHeadSize: Int = 16 << 10) throws(WebSocketError) -> Outcome {
        guard let end = Self.headEnd(in: bytes) else {
            if bytes.count > maxHeadSize { throw .handshakeFailed(status: 0, reason: "response head longer than \(maxHeadSize) bytes") }
            return .incomplete
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
            throw .handshakeFailed(status: 0, reason: "not an HTTP response: \(Self.excerpt(statusLine))")
        }
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard status == 101 else {
            let reason = parts.count > 2 ? String(parts[2]) : "no reason"
            throw .handshakeFailed(status: status, reason: Self.excerpt(reason))
        }
        guard fields["upgrade"]?.lowercased() == "websocket" else {
            throw .handshakeFailed(status: status, reason: "missing Upgrade: websocket")
        }
        guard fields["connection"]?.lowercased().split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "upgrade" }) == true else {
            throw .handshakeFailed(status: status, reason: "missing Connection: Upgrade")
        }
        guard fields["sec-websocket-accept"] == Self.acceptValue(for: key) else {
            throw .handshakeFailed(status: status, reason: "Sec-WebSocket-Accept does not match the key")
        }
        if let extensions = fields["sec-websocket-extensions"], !extensions.isEmpty {
            throw .handshakeFailed(status: status, reason: "server chose an extension that was not offered")
        }
        return .upgraded(leftover: Array(bytes[(end + 4)...]))
    }

    static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Server text quoted in an error: short, printable ASCII only.
    static func excerpt(_ text: String) -> String {
        String(text.unicodeScalars.prefix(80).map { (0x20...0x7E).contains($0.value) ? Character($0) : "?" })
    }
}
