import Domain
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import Networking
import Testing

/// The live servicer's connections against `KeepAliveServer`: kept alive and reused, dropped when the
/// server closes them, retried once when a kept one turns out closed, chunked and read-until-close
/// bodies, a silent server (its deadline, and that waiting costs no CPU), cancellation closing the socket,
/// and TLS with the throwaway CA.
@Suite struct SocketRequestServicerConnectionTests {
    private func get(_ servicer: SocketRequestServicer, _ url: URL) async throws(BrokerError) -> HTTPResponse {
        try await servicer.send(HTTPRequest(url: url), secretNames: [])
    }

    private func post(_ servicer: SocketRequestServicer, _ url: URL, body: String) async throws(BrokerError) -> HTTPResponse {
        var request = HTTPRequest(url: url)
        request.method = "POST"
        request.body = Data(body.utf8)
        request.headerFields["Content-Type"] = "text/plain"
        return try await servicer.send(request, secretNames: [])
    }

    /// What /hello said about the request it answered.
    private struct Echo: Decodable {
        let connection: Int
        let request: Int
        let method: String
        let target: String
        let headers: [String: String]
        let body: String
    }

    private func echo(_ response: HTTPResponse) throws -> Echo {
        try JSONDecoder().decode(Echo.self, from: response.body)
    }

    // MARK: - Keep-alive

    @Test func aSecondRequestReusesTheKeptConnection() async throws {
        let server = try await KeepAliveServer.plain()
        let servicer = SocketRequestServicer()
        let url = server.url("/hello")

        let first = try echo(try await get(servicer, url))
        let second = try echo(try await post(servicer, server.url("/hello"), body: "side=buy"))

        #expect(second.connection == first.connection)
        #expect(first.request == 1 && second.request == 2)
        #expect(servicer.idleConnectionCount(for: url) == 1)
        #expect(first.method == "GET" && second.method == "POST")
        #expect(first.target == url.path + "?" + url.query!)
        #expect(second.body == "side=buy")
        #expect(second.headers["Content-Length"] == "8")
        #expect(second.headers["Host"] == "127.0.0.1:\(server.port)")
        #expect(second.headers["Accept-Encoding"] == "identity")
        #expect(second.headers["Connection"] == "keep-alive")
    }

    @Test func aConnectionTheServerClosedWhileIdleIsNotUsedAgain() async throws {
        let server = try await KeepAliveServer.plain()
        let servicer = SocketRequestServicer()

        let closing = try echo(try await get(servicer, server.url("/close-after")))
        #expect(await server.said("CLOSED \(closing.connection)"))
        let next = try echo(try await get(servicer, server.url("/hello")))

        #expect(next.connection != closing.connection)
        #expect(next.request == 1)
    }

    @Test func anIdempotentRequestOnAKeptConnectionClosedUnderItGoesAgainOnANewOne() async throws {
        let server = try await KeepAliveServer.plain()
        let servicer = SocketRequestServicer()

        let before = try echo(try await get(servicer, server.url("/hang-up-next")))
        let retried = try echo(try await get(servicer, server.url("/hello")))

        #expect(retried.connection != before.connection)
        #expect(retried.request == 1)
        #expect(await server.said("CLOSED \(before.connection)"))
    }

    @Test func aPostOnAKeptConnectionClosedUnderItIsNotRepeated() async throws {
        let server = try await KeepAliveServer.plain()
        let servicer = SocketRequestServicer()

        let before = try echo(try await get(servicer, server.url("/hang-up-next")))
        let error = await brokerError { () async throws(BrokerError) in try await post(servicer, server.url("/hello"), body: "qty=1") }

        #expect(error == .network("connection closed without a response (127.0.0.1:\(server.port))"))
        #expect(await server.said("CLOSED \(before.connection)"))
        #expect(servicer.idleConnectionCount(for: server.url("/hello")) == 0)
    }

    @Test func aChunkedBodyIsReadWholeAndTheConnectionKept() async throws {
        let server = try await KeepAliveServer.plain()
        let servicer = SocketRequestServicer()

        let chunked = try await get(servicer, server.url("/chunked"))
        let next = try echo(try await get(servicer, server.url("/hello")))

        #expect(chunked.status == 200)
        #expect(String(decoding: chunked.body, as: UTF8.self) == "chunked is read whole.")
        #expect(chunked.header("transfer-encoding") == "chunked")
        #expect(chunked.header("x-checksum") == nil, "trailers are not headers")
        #expect(chunked.header("x-connection") == String(next.connection))
        #expect(next.request == 2)
    }

    @Test func aBodyReadUntilTheServerClosesEndsTheConnection() async throws {
        let server = try await KeepAliveServer.plain()
        let servicer = SocketRequestServicer()
        let url = server.url("/until-close")

        let response = try await get(servicer, url)

        #expect(String(decoding: response.body, as: UTF8.self) == "read until the server closes")
        #expect(servicer.idleConnectionCount(for: url) == 0)
    }

    // MARK: - A server that says nothing

    /// The soak's paused server (issue 18): the connection is accepted and the request read, then nothing.
    /// The request ends at its deadline with the footer's words, and the thread waiting for the answer
    /// sleeps in poll(): URLSession spun at 47–83 % of a core here.
    ///
    /// The CPU is that of each exchange thread (every thread named `HTTPExchange.threadName`, from
    /// /proc/self/task) alive across the window, the busiest one's, not the process's nor the sum of
    /// them: the suite runs in parallel in this process, and the other tests' exchanges (their threads
    /// have the same name) made a summed bound fail under ThreadSanitizer (0.33 s of 1.5). This request's
    /// thread started before the window; a thread spinning in a loop would use about all of it, and 20 %
    /// is generous for one that sleeps.
    @Test func aSilentServerTimesOutWithoutSpinning() async throws {
        let server = try await KeepAliveServer.plain()
        let servicer = SocketRequestServicer(timeout: .seconds(3))
        let url = server.url("/silent")
        let request = Task { await brokerError { () async throws(BrokerError) in try await get(servicer, url) } }
        #expect(await server.silentConnection(for: url) != nil)

        let before = ExchangeThreadCPU.sample()
        let window = Duration.seconds(1.5)
        // Not waiting for anything: letting time pass, the span over which the CPU is measured.
        try await Task.sleep(for: window)
        let after = ExchangeThreadCPU.sample()
        let error = await request.value

        #expect(error == .network("timed out (127.0.0.1:\(server.port))"))
        #expect(!before.isEmpty, "no thread named \(HTTPExchange.threadName) was found")
        let used = ExchangeThreadCPU.busiest(from: before, to: after)
        #expect(used < window * 0.2, "an exchange thread used \(used) of CPU in \(window)")
    }

    @Test func cancellingARequestToASilentServerClosesItsSocketAtOnce() async throws {
        let server = try await KeepAliveServer.plain()
        let servicer = SocketRequestServicer()
        let url = server.url("/silent")
        let request = Task { await brokerError { () async throws(BrokerError) in try await get(servicer, url) } }
        let connection = try #require(await server.silentConnection(for: url))

        request.cancel()

        #expect(await request.value == .cancelled)
        #expect(await server.said("CLOSED \(connection)"), "the server saw the connection close")
        #expect(servicer.idleConnectionCount(for: url) == 0)
    }

    @Test func aServerThatNeverAcceptsTimesOutToo() async throws {
        let listener = try LoopbackListener()
        defer { listener.close() }
        let servicer = SocketRequestServicer(timeout: .milliseconds(300))

        let error = await brokerError { () async throws(BrokerError) in try await get(servicer, URL(string: "http://127.0.0.1:\(listener.port)/v1/quotes?token=secret")!) }

        #expect(error == .network("timed out (127.0.0.1:\(listener.port))"))
    }

    @Test func anUnknownHostIsNamedWithoutThePath() async throws {
        let error = await brokerError { () async throws(BrokerError) in
            try await get(SocketRequestServicer(), URL(string: "http://no-such-host.invalid/v1/quotes?token=secret")!)
        }

        #expect(error == .network("host not found (no-such-host.invalid)"))
    }

    @Test func aURLThatIsNotHTTPIsRefusedBeforeAnythingIsSent() async throws {
        let error = await brokerError { () async throws(BrokerError) in
            try await get(SocketRequestServicer(), URL(string: "ftp://example.com/file?token=secret")!)
        }

        #expect(error == .network("unsupported URL (example.com)"))
    }

    // MARK: - TLS

    @Test func httpsWithTheConfiguredCAIsVerifiedAndKeptAlive() async throws {
        let server = try await KeepAliveServer.tls()
        let authority = try await ThrowawayCertificateAuthority.shared()
        let servicer = SocketRequestServicer(options: .init(extraCAFile: authority.certificateFile))

        for host in ["localhost", "127.0.0.1"] {
            let first = try echo(try await get(servicer, server.url("/hello", host: host)))
            let second = try echo(try await get(servicer, server.url("/hello", host: host)))

            #expect(second.connection == first.connection, "\(host)")
            #expect(second.request == 2, "\(host)")
            #expect(second.headers["Host"] == "\(host):\(server.port)")
        }
        let chunked = try await get(servicer, server.url("/chunked", host: "localhost"))
        #expect(String(decoding: chunked.body, as: UTF8.self) == "chunked is read whole.")
    }

    @Test func httpsWithoutTheCAIsRefusedAsUntrusted() async throws {
        let server = try await KeepAliveServer.tls()

        let error = await brokerError { () async throws(BrokerError) in try await get(SocketRequestServicer(), server.url("/hello")) }

        #expect(error == .network("certificate not trusted (127.0.0.1:\(server.port))"))
    }

    @Test func aCertificateForAnotherHostIsRefusedEvenFromATrustedCA() async throws {
        let server = try await KeepAliveServer.tlsForOtherHost()
        let authority = try await ThrowawayCertificateAuthority.shared()
        let servicer = SocketRequestServicer(options: .init(extraCAFile: authority.certificateFile))

        let error = await brokerError { () async throws(BrokerError) in try await get(servicer, server.url("/hello", host: "localhost")) }

        #expect(error == .network("certificate does not match the host (localhost:\(server.port))"))
    }

    @Test func theInsecureOptInSkipsVerification() async throws {
        let server = try await KeepAliveServer.tlsForOtherHost()
        let servicer = SocketRequestServicer(options: .init(allowInsecureTLS: true))

        #expect(try await get(servicer, server.url("/hello")).status == 200)
    }

    @Test func plainHTTPToATLSServerIsALostConnectionNotAHang() async throws {
        let server = try await KeepAliveServer.tls()
        let url = URL(string: "http://127.0.0.1:\(server.port)/hello")!

        let error = await brokerError { () async throws(BrokerError) in try await get(SocketRequestServicer(timeout: .seconds(5)), url) }

        guard case .network(let detail)? = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(detail.hasSuffix("(127.0.0.1:\(server.port))"))
    }
}

/// CPU time of the exchange threads, from /proc/self/task/<tid>/stat (Linux; empty elsewhere).
enum ExchangeThreadCPU {
    /// Thread id → user plus system time in clock ticks, for every thread named `HTTPExchange.threadName`.
    static func sample() -> [String: Int] {
        var ticks: [String: Int] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for thread in tasks {
            guard let name = try? String(contentsOfFile: "/proc/self/task/\(thread)/comm", encoding: .utf8),
                  name.trimmingCharacters(in: .newlines) == HTTPExchange.threadName,
                  let stat = try? String(contentsOfFile: "/proc/self/task/\(thread)/stat", encoding: .utf8),
                  let nameEnd = stat.lastIndex(of: ")")
            else { continue }
            // After the name: state (field 3), …, utime (14) and stime (15).
            let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { continue }
            ticks[thread] = user + system
        }
        return ticks
    }

    /// The most CPU that one thread alive at both samples used between them.
    static func busiest(from before: [String: Int], to after: [String: Int]) -> Duration {
        let ticks = after.compactMap { thread, ticks in before[thread].map { ticks - $0 } }.max() ?? 0
        return .milliseconds(ticks * 1000 / max(1, sysconf(Int32(_SC_CLK_TCK))))
    }
}
