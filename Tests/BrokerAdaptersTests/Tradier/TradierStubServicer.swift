import Domain
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Networking
import Synchronization

/// A `RequestServicer` with no network: it answers by the rules of the shared fixture server, from
/// Tests/Fixtures/tradier/routes.json (first matching route wins; method, path, listed query items and
/// required headers must match; no match is a 404), or from a closure. Every request is kept, with the
/// secret names it was sent with, for assertions.
final class TradierStubServicer: RequestServicer {
    struct Sent: Sendable {
        var request: URLRequest
        var secretNames: Set<String>
        var url: String { request.url?.absoluteString ?? "" }
        var symbols: [String] {
            let items = request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
            return items.first { $0.name == "symbols" }?.value?.split(separator: ",").map(String.init) ?? []
        }
    }

    private let answer: @Sendable (URLRequest) throws(BrokerError) -> HTTPResponse
    private let sentRequests = Mutex<[Sent]>([])

    init(answer: @escaping @Sendable (URLRequest) throws(BrokerError) -> HTTPResponse) {
        self.answer = answer
    }

    /// Answers from routes.json.
    convenience init() throws {
        let routes = try TradierFixtureRoutes.load()
        self.init { request throws(BrokerError) in try routes.answer(request) }
    }

    var sent: [Sent] { sentRequests.withLock { $0 } }

    func send(_ request: URLRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        sentRequests.withLock { $0.append(Sent(request: request, secretNames: secretNames)) }
        return try answer(request)
    }
}

/// routes.json, read with the fixture server's matching rules.
struct TradierFixtureRoutes: Sendable {
    struct Route: Sendable {
        var name: String
        var method: String
        var path: String
        var query: [String: String]
        var requireHeaders: [String: String]
        var status: Int
        var headers: [String: String]
        var body: Data
        var behavior: String?
    }

    var routes: [Route]

    static func load() throws -> TradierFixtureRoutes {
        let object = try JSONSerialization.jsonObject(with: try TradierFixtures.data("routes.json")) as? [String: Any] ?? [:]
        let list = object["routes"] as? [[String: Any]] ?? []
        return TradierFixtureRoutes(routes: try list.map { entry in
            let body: Data
            if let file = entry["bodyFile"] as? String {
                body = try TradierFixtures.data(file)
            } else {
                body = Data((entry["body"] as? String ?? "").utf8)
            }
            return Route(
                name: entry["name"] as? String ?? "", method: entry["method"] as? String ?? "GET",
                path: entry["path"] as? String ?? "", query: entry["query"] as? [String: String] ?? [:],
                requireHeaders: entry["requireHeaders"] as? [String: String] ?? [:],
                status: entry["status"] as? Int ?? 200, headers: entry["headers"] as? [String: String] ?? [:],
                body: body, behavior: entry["behavior"] as? String)
        })
    }

    func route(for request: URLRequest) -> Route? {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let items = components.queryItems ?? []
        return routes.first { route in
            route.method == (request.httpMethod ?? "GET") && route.path == components.path
                && route.query.allSatisfy { name, value in items.contains { $0.name == name && $0.value == value } }
                && route.requireHeaders.allSatisfy { name, value in request.value(forHTTPHeaderField: name) == value }
        }
    }

    func answer(_ request: URLRequest) throws(BrokerError) -> HTTPResponse {
        guard let route = route(for: request) else {
            return HTTPResponse(status: 404, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"no fixture route"}"#.utf8))
        }
        switch route.behavior {
        case "drop": throw .network("connection closed before a response")
        case "truncate": return HTTPResponse(status: route.status, headers: route.headers, body: route.body.prefix(route.body.count / 2))
        default: return HTTPResponse(status: route.status, headers: route.headers, body: route.body)
        }
    }
}
