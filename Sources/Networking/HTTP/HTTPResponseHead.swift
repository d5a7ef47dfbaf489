/// A final (non-1xx) response's status line and header fields, as `HTTPResponseParser` read them.
struct HTTPResponseHead: Sendable, Hashable {
    var status: Int
    /// The minor version of `HTTP/1.x`: 0 or 1 (a higher one is read as 1.1, RFC 9110 §2.5).
    var minorVersion: Int
    var reasonPhrase: String
    /// Names lower-cased; a field sent more than once is one value, joined with ", " in the order received
    /// (RFC 9110 §5.3). That is wrong only for Set-Cookie, which no broker needs: this client keeps no cookies.
    var headers: [String: String]

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}
