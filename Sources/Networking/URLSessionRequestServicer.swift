import Domain
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Locking

/// The live servicer: one ephemeral URLSession (no cookies, no cache, no credential store), a deadline
/// per request, and cancellation that reaches the socket.
public final class URLSessionRequestServicer: RequestServicer {
    /// The whole exchange must finish within this many seconds, connect to last byte.
    public let timeout: TimeInterval
    private let session: URLSession

    public init(timeout: TimeInterval = 10) {
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    public func send(_ request: URLRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        var outgoing = request
        outgoing.timeoutInterval = timeout
        outgoing.cachePolicy = .reloadIgnoringLocalCacheData
        let request = outgoing
        let exchange = Exchange()
        let outcome: Result<HTTPResponse, BrokerError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = session.dataTask(with: request) { data, response, error in
                    continuation.resume(returning: Self.outcome(data: data, response: response, error: error, ending: exchange.end(), request: request))
                }
                exchange.start(task, deadline: timeout)
            }
        } onCancel: {
            exchange.cancel(because: .cancelled)
        }
        return try outcome.get()
    }

    /// Why a task ended before its completion handler had a real answer; nil if it was not stopped by us.
    enum Ending: Sendable { case cancelled, timedOut }

    private static func outcome(data: Data?, response: URLResponse?, error: (any Error)?, ending: Ending?, request: URLRequest) -> Result<HTTPResponse, BrokerError> {
        switch ending {
        case .cancelled?: return .failure(.cancelled)
        case .timedOut?: return .failure(.network(phrase("timed out", url: request.url)))
        case nil: break
        }
        if let error {
            return .failure(.network(reason(for: error, url: request.url)))
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.network("not an HTTP response"))
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        return .success(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
    }

    /// A few words for a table cell or footer. Only the host and port are named: the URL's query may hold
    /// a secret, and the path adds nothing a user can act on.
    static func reason(for error: any Error, url: URL?) -> String {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return "request failed" }
        let words: String
        switch URLError.Code(rawValue: nsError.code) {
        case .cannotConnectToHost: words = "connection refused"
        case .timedOut: words = "timed out"
        case .networkConnectionLost: words = "connection lost"
        case .badServerResponse, .zeroByteResource: words = "connection closed without a response"
        case .cannotFindHost, .dnsLookupFailed: words = "host not found"
        case .notConnectedToInternet: words = "offline"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            words = "TLS handshake failed"
        case .cancelled: words = "cancelled"
        case .unsupportedURL, .badURL: words = "unsupported URL"
        // FoundationNetworking reports a body cut short (curl's "transfer closed with N bytes remaining
        // to read") as an unknown error; its text names no URL, but only its meaning is kept.
        case .unknown where nsError.localizedDescription.hasPrefix("transfer closed"): words = "connection lost mid-answer"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: words = "too many redirects"
        case .cannotDecodeContentData, .cannotDecodeRawData, .cannotParseResponse: words = "unreadable response"
        default: words = "connection failed, URL error \(nsError.code)"
        }
        return phrase(words, url: url)
    }

    /// `words (host:port)`: only the host and port, never the path or query.
    private static func phrase(_ words: String, url: URL?) -> String {
        guard let host = url?.host else { return words }
        return "\(words) (\(url?.port.map { "\(host):\($0)" } ?? host))"
    }
}

/// One request in flight: who stopped it (the caller's cancellation or our deadline) and the task to
/// stop. Cancellation may arrive before the task exists; it is then applied as soon as it starts.
private final class Exchange: Sendable {
    private struct State {
        var task: URLSessionDataTask?
        var ending: URLSessionRequestServicer.Ending?
        var finished = false
    }
    private let state = Locked(State())

    func start(_ task: URLSessionDataTask, deadline seconds: TimeInterval) {
        let alreadyStopped = state.withLock { state -> Bool in
            state.task = task
            return state.ending != nil
        }
        if alreadyStopped {
            // The completion handler still runs, with the ending recorded above.
            task.resume()
            task.cancel()
            return
        }
        // URLSession's own timeouts are per idle interval on some platforms; this one bounds the whole
        // exchange everywhere. Firing after the end is harmless: `cancel` ignores a finished exchange.
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.cancel(because: .timedOut) }
        task.resume()
    }

    func cancel(because ending: URLSessionRequestServicer.Ending) {
        let task = state.withLock { state -> URLSessionDataTask? in
            guard !state.finished, state.ending == nil else { return nil }
            state.ending = ending
            return state.task
        }
        task?.cancel()
    }

    /// Called once, from the completion handler: what stopped the task, if we did.
    func end() -> URLSessionRequestServicer.Ending? {
        return state.withLock { state in
            state.finished = true
            state.task = nil
            return state.ending
        }
    }
}
