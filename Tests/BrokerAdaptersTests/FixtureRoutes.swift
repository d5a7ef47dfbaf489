import Domain
import Foundation
import Networking

/// A broker's `Tests/Fixtures/<broker>/routes.json`, answered in process by the rules of the shared fixture
/// server (Tests/Fixtures/http_fixture_server.py): routes are tried in order; a route matches on method,
/// path (as sent or percent-decoded), every listed query item (one value: among the values sent; several:
/// exactly those, in order; extra items allowed) and every required header; no match is 404
/// `{"error":"no fixture route"}`. `delayMs` is ignored (no sleeping in tests), `drop` throws `.network`,
/// `truncate` cuts the body in half.
struct FixtureRoutes: Sendable {
    struct Route: Sendable {
        var name: String
        var method: String
        var path: String
        var query: [String: [String]]
        var requireHeaders: [String: String]
        var status: Int
        var headers: [String: String]
        /// The `body` text or the `bodyFile`'s bytes.
        var body: Data
        var behavior: String?
    }

    var routes: [Route]

    /// Reads every body file now, so a route naming a missing file fails the test that loads it.
    static func load(broker: String) throws -> FixtureRoutes {
        try parse(FixtureFiles.data(broker, "routes.json"), broker: broker)
    }

    /// A routes.json document whose `bodyFile`s are under `Tests/Fixtures/<broker>`.
    static func parse(_ json: Data, broker: String) throws -> FixtureRoutes {
        let file = try JSONDecoder().decode(RouteFile.self, from: json)
        return FixtureRoutes(routes: try file.routes.map { entry in
            Route(
                name: entry.name ?? entry.path, method: (entry.method ?? "GET").uppercased(), path: entry.path,
                query: entry.query?.mapValues(\.values) ?? [:], requireHeaders: entry.requireHeaders ?? [:],
                status: entry.status ?? 200, headers: entry.headers ?? [:],
                body: try entry.bodyFile.map { try FixtureFiles.data(broker, $0) } ?? Data((entry.body ?? "").utf8),
                behavior: entry.behavior
            )
        })
    }

    func route(for request: HTTPRequest) -> Route? {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else { return nil }
        let method = request.method
        let sent = components.queryItems ?? []
        return routes.first { route in
            route.method == method
                && (route.path == components.percentEncodedPath || route.path == components.path)
                && route.query.allSatisfy { name, values in
                    let present = sent.filter { $0.name == name }.map { $0.value ?? "" }
                    return values.count == 1 ? present.contains(values[0]) : (!present.isEmpty && present == values)
                }
                && route.requireHeaders.allSatisfy { name, value in request.headerFields[name] == value }
        }
    }

    func answer(_ request: HTTPRequest) throws(BrokerError) -> HTTPResponse {
        guard let route = route(for: request) else {
            return HTTPResponse(status: 404, headers: ["Content-Type": "application/json"], body: Data(#"{"error":"no fixture route"}"#.utf8))
        }
        switch route.behavior {
        case "drop": throw .network("connection closed before a response (fixture route \(route.name))")
        case "truncate": return HTTPResponse(status: route.status, headers: route.headers, body: route.body.prefix(route.body.count / 2))
        default: return HTTPResponse(status: route.status, headers: route.headers, body: route.body)
        }
    }

    private struct RouteFile: Decodable {
        var routes: [Entry]
    }

    /// One route as written; everything but the path may be left out.
    private struct Entry: Decodable {
        var name: String?
        var method: String?
        var path: String
        var query: [String: QueryValues]?
        var requireHeaders: [String: String]?
        var status: Int?
        var headers: [String: String]?
        var body: String?
        var bodyFile: String?
        var behavior: String?
    }

    /// A query item's listed value: one string, or several in order.
    private struct QueryValues: Decodable {
        var values: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                values = [one]
            } else {
                values = try container.decode([String].self)
            }
        }
    }
}
