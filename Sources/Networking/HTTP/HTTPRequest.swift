import Foundation

/// An HTTP request as the app builds it: where, which method, which header fields, which body. A plain
/// value in place of Foundation's `URLRequest`, which on Linux lives in FoundationNetworking and brings
/// libcurl and some 25 shared libraries into the process (issue 18: resident memory and start-up).
///
/// There is no per-request timeout: the servicer's own (`SocketRequestServicer.Options.timeout`) covers
/// every request, as it did when `URLRequest.timeoutInterval` was set by no one and read by nothing.
public struct HTTPRequest: Sendable, Hashable {
    public var url: URL
    /// Always uppercased (`post` is kept as `POST`): the method is sent, recorded and matched this way.
    public var method: String {
        get { uppercasedMethod }
        set { uppercasedMethod = newValue.uppercased() }
    }
    public var headerFields: HTTPHeaderFields
    /// Nil sends no body; an empty one still says `Content-Length: 0` (see `HTTPOutgoingRequest`).
    public var body: Data?

    private var uppercasedMethod: String

    public init(url: URL, method: String = "GET", headerFields: HTTPHeaderFields = [:], body: Data? = nil) {
        self.url = url
        self.uppercasedMethod = method.uppercased()
        self.headerFields = headerFields
        self.body = body
    }
}
