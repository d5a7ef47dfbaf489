import Domain
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Synchronization

/// Answers like the shared fixture server would from `Tests/Fixtures/<broker>/routes.json`, in process:
/// routes tried in order; a route matches on method, path, every listed query item and every required
/// header; no match is 404 `{"error":"no fixture route"}`. `delayMs` is ignored (no sleeping in tests),
/// `drop` throws `.network`, `truncate` cuts the body in half. Records every request it was sent.
final class FixtureRoutesServicer: RequestServicer {
    struct Route: Decodable, Sendable {
        var name: String
        var method: String
        var path: String
        var query: [String: String]?
        var requireHeaders: [String: String]?
        var status: Int?
        var headers: [String: String]?
        var body: String?
        var bodyFile: String?
        var delayMs: Int?
        var behavior: String?
    }

    private struct RouteTable: Decodable {
        var routes: [Route]
    }

    let broker: String
    let routes: [Route]
    private let sent = Mutex<[URLRequest]>([])

    init(broker: String) throws {
        self.broker = broker
        self.routes = try JSONDecoder().decode(RouteTable.self, from: Self.fixture(broker, "routes.json")).routes
    }

    /// Every request sent so far, in arrival order.
    var requests: [URLRequest] { sent.withLock { $0 } }

    /// `Tests/Fixtures/<broker>/<name>`, byte for byte.
    static func fixture(_ broker: String, _ name: String) throws -> Data {
        let tests = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Finnhub
            .deletingLastPathComponent()  // BrokerAdaptersTests
            .deletingLastPathComponent()  // Tests
        return try Data(contentsOf: tests.appendingPathComponent("Fixtures/\(broker)/\(name)"))
    }

    func route(for request: URLRequest) -> Route? {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        return routes.first { route in
            route.method == (request.httpMethod ?? "GET") && route.path == components.path
                && (route.query ?? [:]).allSatisfy { query[$0.key] == $0.value }
                && (route.requireHeaders ?? [:]).allSatisfy { request.value(forHTTPHeaderField: $0.key) == $0.value }
        }
    }

    func send(_ request: URLRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        sent.withLock { $0.append(request) }
        guard let route = route(for: request) else {
            return HTTPResponse(status: 404, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"no fixture route"}"#.utf8))
        }
        if route.behavior == "drop" { throw .network("connection closed before any response") }
        var body = Data()
        if let file = route.bodyFile {
            do {
                body = try Self.fixture(broker, file)
            } catch {
                throw .badResponse("missing fixture \(file)")
            }
        } else if let text = route.body {
            body = Data(text.utf8)
        }
        if route.behavior == "truncate" { body = body.prefix(body.count / 2) }
        return HTTPResponse(status: route.status ?? 200, headers: route.headers ?? [:], body: body)
    }
}

/// Holds every request until `batch` of them are waiting (or the last expected one arrived), then lets
/// them all through, so the most requests a caller ever has in flight is observable without sleeping.
/// A caller that never reaches `batch` concurrent requests would wait forever: tests using this carry a
/// time limit.
final class GatedServicer: RequestServicer {
    private struct State {
        var parked: [CheckedContinuation<Void, Never>] = []
        var arrived = 0
        var inFlight = 0
        var maxInFlight = 0
    }

    let inner: any RequestServicer
    let batch: Int
    let expected: Int
    private let state = Mutex(State())

    init(inner: any RequestServicer, batch: Int, expected: Int) {
        self.inner = inner
        self.batch = batch
        self.expected = expected
    }

    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    var arrived: Int { state.withLock { $0.arrived } }

    func send(_ request: URLRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let released: [CheckedContinuation<Void, Never>] = state.withLock { state in
                state.arrived += 1
                state.inFlight += 1
                state.maxInFlight = max(state.maxInFlight, state.inFlight)
                state.parked.append(continuation)
                guard state.parked.count == batch || state.arrived == expected else { return [] }
                defer { state.parked = [] }
                return state.parked
            }
            for parked in released { parked.resume() }
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        return try await inner.send(request, secretNames: secretNames)
    }
}
