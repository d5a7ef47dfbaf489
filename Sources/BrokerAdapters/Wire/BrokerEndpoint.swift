import Foundation
import Networking

/// Every broker's endpoint URLs: an http(s) base URL, which may carry a path prefix (a proxy or a fixture
/// server), then the endpoint's path and query.
public enum BrokerEndpoint {
    /// `path` starts with "/" and is already percent-encoded. A base URL that is not http(s) with a host is
    /// a `.badBaseURL`.
    public static func url(base: URL, path: String, query: [URLQueryItem] = []) -> Result<URL, RequestConstructionError> {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { return .failure(.badBaseURL(base.absoluteString)) }
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.percentEncodedPath = prefix + path
        components.queryItems = query.isEmpty ? nil : query
        components.fragment = nil
        guard let url = components.url else { return .failure(.badBaseURL(base.absoluteString)) }
        return .success(url)
    }

    public static func url(base: Result<URL, RequestConstructionError>, path: String, query: [URLQueryItem] = []) -> Result<URL, RequestConstructionError> {
        base.flatMap { url(base: $0, path: path, query: query) }
    }
}
