/// Why a server's bytes are not an HTTP/1.1 response we can read. The descriptions are a few words for an
/// error message: they never quote the server's bytes (a server that echoes the request would put the
/// URL's secrets there), and say which limit was crossed.
enum HTTPResponseParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not `HTTP/1.x SP 3DIGIT [SP reason]`.
    case malformedStatusLine
    /// A header line (counted from 1 after the status line) that is not `name: value`, or holds a NUL or CR.
    case malformedHeaderField(line: Int)
    /// The status line and headers (or a chunked body's trailers) are longer than `limit` bytes.
    case headTooLarge(limit: Int)
    /// The body is, or says it will be, longer than `limit` bytes.
    case bodyTooLarge(limit: Int)
    /// Content-Length is not a decimal number, or is sent several times with different values.
    case invalidContentLength
    /// A transfer coding other than `chunked` (we send no TE header, so a server may use no other).
    case unsupportedTransferCoding
    /// A chunk size that is not hexadecimal, or chunk data not followed by CRLF.
    case malformedChunk
    /// 101 Switching Protocols, which we never ask for.
    case unexpectedSwitchingProtocols
    /// The server closed the connection before sending a single byte.
    case closedBeforeResponse
    /// The server closed the connection before the end of the status line and headers.
    case closedInHead
    /// The server closed the connection before the end of the body its framing announced.
    case closedInBody

    var description: String {
        switch self {
        case .malformedStatusLine: "malformed status line"
        case .malformedHeaderField(let line): "malformed header field (line \(line))"
        case .headTooLarge(let limit): "response head over \(Self.describe(bytes: limit))"
        case .bodyTooLarge(let limit): "response body over \(Self.describe(bytes: limit))"
        case .invalidContentLength: "invalid Content-Length"
        case .unsupportedTransferCoding: "unsupported transfer coding"
        case .malformedChunk: "malformed chunked body"
        case .unexpectedSwitchingProtocols: "unexpected 101 Switching Protocols"
        case .closedBeforeResponse: "connection closed without a response"
        case .closedInHead: "connection closed in the response head"
        case .closedInBody: "connection lost mid-answer"
        }
    }

    private static func describe(bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
