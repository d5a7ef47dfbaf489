import Domain
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Synchronization

/// A `RequestServicer` without a network: answers with a closure, by default by interpreting
/// Tests/Fixtures/alpaca/routes.json the way the shared fixture server does (first matching route wins;
/// listed query items and headers must match exactly; no match is 404). It records every request and the
/// most requests it ever had in flight at once.
final class AlpacaStubServicer: RequestServicer {
    typealias Answer = @Sendable (URLRequest) throws(BrokerError) -> HTTPResponse

    private let answer: Answer
    private let state = Mutex(State())

    private struct State {
        var requests: [URLRequest] = []
        var inFlight = 0
        var maxInFlight = 0
    }

    init(answer: @escaping Answer) {
        self.answer = answer
    }

    /// Serves routes.json.
    static func fromRoutes() throws -> AlpacaStubServicer {
        let routes = try JSONDecoder().decode(RouteFile.self, from: AlpacaFixtures.data("routes.json")).routes
        let bodies = try Dictionary(
            routes.compactMap(\.bodyFile).map { ($0, try AlpacaFixtures.data($0)) }, uniquingKeysWith: { first, _ in first }
        )
        return AlpacaStubServicer { request throws(BrokerError) in
            guard let route = routes.first(where: { $0.matches(request) }) else {
                return HTTPResponse(status: 404, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"no fixture route"}"#.utf8))
            }
            let body = route.bodyFile.flatMap { bodies[$0] } ?? Data((route.body ?? "").utf8)
            switch route.behavior {
            case "drop": throw .network("connection closed before a response (fixture route \(route.name))")
            case "truncate": return HTTPResponse(status: route.status ?? 200, headers: route.headers ?? [:], body: body.prefix(body.count / 2))
            default: return HTTPResponse(status: route.status ?? 200, headers: route.headers ?? [:], body: body)
            }
        }
    }

    /// Always the same answer.
    static func answering(status: Int, headers: [String: String] = ["Content-Type": "application/json"], body: String) -> AlpacaStubServicer {
        AlpacaStubServicer { _ throws(BrokerError) in HTTPResponse(status: status, headers: headers, body: Data(body.utf8)) }
    }

    var requests: [URLRequest] { state.withLock { $0.requests } }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    func send(_ request: URLRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        state.withLock {
            $0.requests.append(request)
            $0.inFlight += 1
            $0.maxInFlight = max($0.maxInFlight, $0.inFlight)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        // Give sibling requests the chance to overlap, so `maxInFlight` sees real concurrency.
        for _ in 0..<3 { await Task.yield() }
        return try answer(request)
    }
}

private struct RouteFile: Decodable {
    let routes: [Route]
}

private struct Route: Decodable {
    let name: String
    let method: String
    let path: String
    let query: [String: String]?
    let requireHeaders: [String: String]?
    let status: Int?
    let headers: [String: String]?
    let body: String?
    let bodyFile: String?
    let delayMs: Int?
    let behavior: String?

    func matches(_ request: URLRequest) -> Bool {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              (request.httpMethod ?? "GET") == method, components.path == path
        else { return false }
        let items = components.queryItems ?? []
        for (name, value) in query ?? [:] where !items.contains(where: { $0.name == name && $0.value == value }) {
            return false
        }
        for (name, value) in requireHeaders ?? [:] where request.value(forHTTPHeaderField: name) != value {
            return false
        }
        return true
    }
}
