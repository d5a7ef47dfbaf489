import Foundation
import Networking

/// Endpoint URLs under a broker's base URL. The base may be an override (a proxy, the fixture server)
/// with a port and a path prefix, which the endpoint path follows.
enum BrokerURL {
    /// `base` when it is an http or https URL with a host, else `.badBaseURL` naming it.
    static func validated(_ base: URL) -> Result<URL, RequestConstructionError> {
        guard let components = URLComponents(url: base, resolvingAgainstBaseURL: false),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty
        else { return .failure(.badBaseURL(base.absoluteString)) }
        return .success(base)
    }

    /// The valid `base`'s scheme, host, port and path prefix (without trailing slashes), then `path`
    /// (already percent-encoded, starting with `/`) and `query` (none when empty). The base's own query
    /// and fragment are dropped: they belong to no endpoint.
    static func join(base: URL, path: String, query: [URLQueryItem] = []) -> Result<URL, RequestConstructionError> {
        validated(base).flatMap { base in
            guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
                return .failure(.badBaseURL(base.absoluteString))
            }
            var prefix = components.percentEncodedPath
            while prefix.hasSuffix("/") { prefix.removeLast() }
            components.percentEncodedPath = prefix + path
            components.queryItems = query.isEmpty ? nil : query
            components.fragment = nil
            guard let url = components.url else { return .failure(.badBaseURL(base.absoluteString)) }
            return .success(url)
        }
    }

    /// `text` as one percent-encoded path segment (`/` and `;` encoded too, so an id cannot add a segment),
    /// or nil for text that would not name a resource of its own: empty, `.` or `..`. For ids the broker
    /// issued (orders, accounts) that go into a path.
    static func pathSegment(_ text: String) -> String? {
        guard !text.isEmpty, text != ".", text != ".." else { return nil }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/;%")
        return text.addingPercentEncoding(withAllowedCharacters: allowed)
    }
}
