import Foundation

/// An `HTTPRequest` as the bytes of one HTTP/1.1 request (RFC 9112 §3), and what the client needs to know
/// about it. Pure: no I/O.
///
/// Written: `METHOD path?query HTTP/1.1`, Host, the request's own header fields (in the order of their
/// lowercased names, as `HTTPHeaderFields` keeps them), `Accept-Encoding: identity`, `Connection: keep-alive`,
/// and Content-Length when there is a body or the method is one that carries one (an empty POST says
/// `Content-Length: 0`, reference §1.1). Fields the client owns are dropped from the request's: Host,
/// Content-Length and Transfer-Encoding (the framing is ours), Connection, Keep-Alive, TE and Upgrade
/// (hop-by-hop: this connection's business), and Accept-Encoding (we cannot decode compression).
struct HTTPOutgoingRequest: Sendable {
    let origin: HTTPOrigin
    let method: String
    /// Head and body.
    let bytes: [UInt8]
    /// For error messages: `host:port` when the URL named the port, else `host`, as URLSession's errors
    /// read. Never the path or the query, which may hold a secret.
    let place: String

    /// RFC 9110 §9.2.2: the methods a client may repeat when a connection failed before an answer.
    var isIdempotent: Bool { ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(method) }

    private static let ownedFieldNames: Set<String> = [
        "host", "content-length", "transfer-encoding", "connection", "keep-alive", "te", "upgrade", "accept-encoding",
    ]

    private static let methodsWithContent: Set<String> = ["POST", "PUT", "PATCH"]

    init(_ request: HTTPRequest) throws(HTTPRequestError) {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var host = components.host?.lowercased(), !host.isEmpty
        else { throw .unsupportedURL }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let usesTLS = scheme == "https"
        let port = components.port ?? (usesTLS ? 443 : 80)
        guard (1...65535).contains(port) else { throw .unsupportedURL }
        origin = HTTPOrigin(usesTLS: usesTLS, host: host, port: port)
        place = components.port.map { "\(host):\($0)" } ?? host

        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let target = path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        // What URLComponents keeps percent-encoded is visible ASCII; anything else would break the line.
        guard target.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .unsupportedURL }

        method = request.method
        guard !method.isEmpty, method.utf8.allSatisfy(Self.isTokenCharacter) else { throw .invalidMethod }
        let body = request.body

        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(origin.hostHeader)\r\n"
        for field in request.headerFields {
            guard !field.name.isEmpty, field.name.utf8.allSatisfy(Self.isTokenCharacter),
                  !field.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            else { throw .invalidHeaderField(name: field.name) }
            if Self.ownedFieldNames.contains(field.name.lowercased()) { continue }
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Accept-Encoding: identity\r\nConnection: keep-alive\r\n"
        if body != nil || Self.methodsWithContent.contains(method) {
            head += "Content-Length: \(body?.count ?? 0)\r\n"
        }
        head += "\r\n"
        bytes = Array(head.utf8) + (body.map(Array.init) ?? [])
    }

    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

    /// RFC 9110 §5.6.2 tchar.
    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): true
        default: tokenSymbols.contains(byte)
        }
    }
}
