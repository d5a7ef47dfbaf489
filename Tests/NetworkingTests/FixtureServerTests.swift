import TestSupport
import Domain
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Networking
import Testing

/// The fixture server's own semantics (Tests/Fixtures/http_fixture_server.py), which every broker's live
/// tests rely on: matching, ordering, nested route files, the log, and how it stops.
@Suite struct FixtureServerTests {
    let marker = UUID().uuidString
    let servicer = SocketRequestServicer(timeout: .seconds(5))

    private func get(_ server: FixtureServer, _ path: String, headers: [String: String] = [:]) async throws -> HTTPResponse {
        var request = HTTPRequest(url: server.url(path + (path.contains("?") ? "&" : "?") + "marker=\(marker)"))
        for (name, value) in headers { request.headerFields[name] = value }
        return try await servicer.send(request, secretNames: [])
    }

    @Test func routeFilesAreFoundRecursivelyAndBodiesAreRelativeToThem() async throws {
        let server = try await FixtureServer.shared()

        let response = try await get(server, "/nested/hello")

        #expect(response.status == 200)
        #expect(response.body == (try SelftestRequests.bytes(of: "nested/bodies/hello.txt")))
        #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        #expect(response.header("Connection") == "close")
    }

    @Test func theFirstMatchingRouteAnswers() async throws {
        let server = try await FixtureServer.shared()
        #expect(try await get(server, "/nested/order").body == Data("first".utf8))
    }

    @Test func queryValuesAndRequiredHeadersMustMatchExactly() async throws {
        let server = try await FixtureServer.shared()
        let headers = ["Authorization": "Bearer test-token", "Accept": "application/json"]

        let exact = try await get(server, "/v1/quotes?symbols=AAPL,MSFT&extra=1", headers: headers)
        let otherValue = try await get(server, "/v1/quotes?symbols=AAPL", headers: headers)
        let otherToken = try await get(server, "/v1/quotes?symbols=AAPL,MSFT", headers: ["Authorization": "Bearer nope", "Accept": "application/json"])

        #expect(exact.status == 200)
        #expect(otherValue.status == 401)
        #expect(otherToken.status == 401)
    }

    @Test func anUnknownRouteIsA404WithAJSONBody() async throws {
        let server = try await FixtureServer.shared()

        let response = try await get(server, "/v9/nowhere")

        #expect(response.status == 404)
        #expect(response.body == Data(#"{"error":"no fixture route"}"#.utf8))
    }

    @Test func theServicerSendsNoCookieBack() async throws {
        let server = try await FixtureServer.shared()

        let first = try await get(server, "/nested/cookie")
        _ = try await get(server, "/nested/cookie")

        #expect(first.header("Set-Cookie") == "session=abc; Path=/")
        let logged = try await server.requestLog().filter { $0.isMarked(marker) }
        #expect(logged.count == 2)
        #expect(logged.allSatisfy { $0.header("Cookie") == nil })
    }

    @Test func theLogRecordsRequestsAndCanBeCleared() async throws {
        // Stopped at the end, or by its deinit when a step throws.
        let server = try await FixtureServer.start()

        _ = try await get(server, "/v1/quotes?symbols=A&symbols=B", headers: ["X-Probe": "1"])
        let logged = try await server.requestLog()
        try await server.clearLog()
        let cleared = try await server.requestLog()
        await server.stop()

        #expect(logged.count == 1)
        #expect(logged.first?.method == "GET")
        #expect(logged.first?.path == "/v1/quotes")
        #expect(logged.first?.query == ["symbols": ["A", "B"], "marker": [marker]])
        #expect(logged.first?.header("x-probe") == "1")
        #expect(cleared.isEmpty)
    }

    /// Each way of stopping on its own server: once both were sent to one server (stdin closed, then
    /// SIGTERM), they raced, and a SIGTERM landing while Python finalized killed it (143).
    @Test func itExitsCleanlyOnSIGTERM() async throws {
        let server = try await FixtureServer.start()
        #expect(await server.stop(signal: SIGTERM) == 0)
        #expect(await server.stop() == nil)
    }

    /// The race itself, made deterministic: SIGTERM arrives after the closed stdin has started the exit.
    @Test func aSIGTERMAfterItBeganStoppingDoesNotKillIt() async throws {
        let server = try await FixtureServer.start()
        #expect(await server.closeStdinAndWaitUntilStopping())
        #expect(await server.stop(signal: SIGTERM) == 0)
    }

    @Test func itExitsCleanlyWhenItsStdinCloses() async throws {
        let server = try await FixtureServer.start()
        #expect(await server.stop(signal: nil) == 0)
    }
}
