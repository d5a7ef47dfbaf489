import Domain
import Foundation

/// The live servicer: HTTP/1.1 of our own over the project's TCP and TLS transports, in place of
/// FoundationNetworking's URLSession, whose libcurl-on-dispatch loop spun at 47–83 % of a core while a
/// paused server left its requests waiting (`make soak`, issue 18).
///
/// Each request runs on a thread of its own (`HTTPExchange`) that sleeps in poll() on its socket and a
/// wake-up pipe: a silent server costs no CPU until the deadline. One deadline per request, connect to
/// last byte (DNS is not covered: getaddrinfo cannot be interrupted; a cancellation still answers at
/// once). Connections are kept alive and reused per origin (scheme, host, port), at most
/// `maxIdleConnectionsPerOrigin` waiting, each for at most `idleTimeout`; a request that finds a kept
/// connection closed by the server before any byte of the answer goes again, once, on a new connection,
/// if its method is idempotent.
///
/// No cookies, no cache, no credential store, no compression (`Accept-Encoding: identity`). Redirects are
/// NOT followed: a 3xx is returned like any status (and `HTTPStatusMapping` makes it a bad response). No
/// broker API we call redirects, and following one would send the request's credentials to whatever
/// host the `Location` names.
public final class SocketRequestServicer: RequestServicer {
    public struct Options: Sendable {
        /// The whole exchange must finish within this, connect to last byte.
        public var timeout: Duration
        /// A PEM file of CA certificates trusted in addition to the system store (config `tls.caFile`).
        public var extraCAFile: String?
        /// Switches certificate and hostname verification off: only for an explicit user choice that the
        /// app shows loudly on screen (config `tls.insecureSkipVerify`).
        public var allowInsecureTLS: Bool
        public var maxIdleConnectionsPerOrigin: Int
        /// Idle connections are closed after this; servers commonly drop theirs after 60 s or more.
        public var idleTimeout: Duration
        public var maxResponseHeadSize: Int
        public var maxResponseBodySize: Int

        public init(
            timeout: Duration = .seconds(10),
            extraCAFile: String? = nil,
            allowInsecureTLS: Bool = false,
            maxIdleConnectionsPerOrigin: Int = 4,
            idleTimeout: Duration = .seconds(30),
            maxResponseHeadSize: Int = 64 * 1024,
            maxResponseBodySize: Int = 32 * 1024 * 1024
        ) {
            self.timeout = timeout
            self.extraCAFile = extraCAFile
            self.allowInsecureTLS = allowInsecureTLS
            self.maxIdleConnectionsPerOrigin = maxIdleConnectionsPerOrigin
            self.idleTimeout = idleTimeout
            self.maxResponseHeadSize = maxResponseHeadSize
            self.maxResponseBodySize = maxResponseBodySize
        }
    }

    public let options: Options
    private let pool: HTTPConnectionPool
    private let settings: HTTPExchange.Settings

    public init(options: Options = Options()) {
        self.options = options
        pool = HTTPConnectionPool(maxPerOrigin: options.maxIdleConnectionsPerOrigin, idleTimeout: options.idleTimeout)
        settings = HTTPExchange.Settings(
            timeout: options.timeout,
            tls: HTTPConnection.TLSSettings(extraCAFile: options.extraCAFile, allowInsecure: options.allowInsecureTLS),
            limits: HTTPResponseParser.Limits(maxHeadSize: options.maxResponseHeadSize, maxBodySize: options.maxResponseBodySize)
        )
    }

    public convenience init(timeout: Duration) {
        self.init(options: Options(timeout: timeout))
    }

    public func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        let outgoing: HTTPOutgoingRequest
        do {
            outgoing = try HTTPOutgoingRequest(request)
        } catch {
            let host = request.url.host.map { " (\($0))" } ?? ""
            throw .network(error.description + host)
        }
        let exchange: HTTPExchange
        do {
            exchange = try HTTPExchange(request: outgoing, pool: pool, settings: settings)
        } catch {
            throw .network("\(error.words) (\(outgoing.place))")
        }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                exchange.start { continuation.resume(returning: $0) }
            }
        } onCancel: {
            exchange.cancel()
        }
        switch outcome {
        case .success(let response): return response
        case .failure(.cancelled): throw .cancelled
        case .failure(let failure): throw .network("\(failure.words) (\(outgoing.place))")
        }
    }

    /// How many connections to `url`'s origin wait for the next request (for tests of keep-alive).
    func idleConnectionCount(for url: URL) -> Int {
        guard let outgoing = try? HTTPOutgoingRequest(HTTPRequest(url: url)) else { return 0 }
        return pool.idleCount(for: outgoing.origin)
    }
}
