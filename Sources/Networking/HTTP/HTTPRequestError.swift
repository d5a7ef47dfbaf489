/// Why an `HTTPRequest` cannot be written as HTTP/1.1. Never quotes a header value or the URL's query,
/// which may hold a secret.
enum HTTPRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not an absolute http or https URL with a host and a valid port.
    case unsupportedURL
    /// The method is not an HTTP token.
    case invalidMethod
    /// A header name that is not a token, or a value holding CR, LF or NUL (it would end the line and
    /// let the rest pass for headers of its own).
    case invalidHeaderField(name: String)

    var description: String {
        switch self {
        case .unsupportedURL: "unsupported URL"
        case .invalidMethod: "invalid HTTP method"
        // Header names come from our own request factories; one is named only if it is visible ASCII.
        case .invalidHeaderField(let name): "invalid request header \(name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } ? name : "name")"
        }
    }
}
