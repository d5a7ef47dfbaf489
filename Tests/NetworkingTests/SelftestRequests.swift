import TestSupport
import Domain
import Foundation
import Networking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The body of Tests/Fixtures/selftest/quotes.json.
struct SelftestQuotes: Decodable, Sendable, Equatable {
    let symbols: [String]
    let price: Double
    let note: String
}

/// Requests for the selftest routes, shaped like a broker's request factory: a secret header, a secret
/// query item, a credential hint and a decode closure that reports garbage with a short excerpt.
enum SelftestRequests {
    static let token = "test-token"
    static let apiKey = "test-secret"
    static let secretNames: Set<String> = ["Authorization", "apiKey"]

    /// `marker` tells this test's requests apart in a shared server's log.
    static func quotes(baseURL: URL, path: String = "/v1/quotes", authorized: Bool = true, apiKey: String? = nil, marker: String? = nil) -> Request<SelftestQuotes> {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "symbols", value: "AAPL,MSFT")]
            + (apiKey.map { [URLQueryItem(name: "apiKey", value: $0)] } ?? [])
            + (marker.map { [URLQueryItem(name: "marker", value: $0)] } ?? [])
        var request = HTTPRequest(url: components.url!)
        request.headerFields["Accept"] = "application/json"
        if authorized { request.headerFields["Authorization"] = "Bearer \(token)" }
        return Request(httpRequest: request, secretNames: secretNames, credentialHint: "check SELFTEST_TOKEN") { response throws(BrokerError) in
            do {
                return try JSONDecoder().decode(SelftestQuotes.self, from: response.body)
            } catch {
                throw .badResponse("quotes: \(response.bodyExcerpt(limit: 40))")
            }
        }
    }

    static func bytes(of fixture: String) throws -> Data {
        try Data(contentsOf: FixtureServer.fixturesDirectory.appendingPathComponent("selftest").appendingPathComponent(fixture))
    }
}

/// Answers from a closure, counting calls: for recording and replay tests that need no server.
struct StubServicer: RequestServicer {
    let answer: @Sendable (HTTPRequest) throws(BrokerError) -> HTTPResponse

    func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        try answer(request)
    }
}

/// Runs `body` and returns the `BrokerError` it threw, or nil.
func brokerError<T>(_ body: () async throws(BrokerError) -> T) async -> BrokerError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

/// A loopback port nothing listens on: bound, read back, closed. Connecting to it is refused.
func unusedLoopbackPort() throws -> Int {
    #if canImport(Glibc)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else { throw FixtureServer.Failure(description: "cannot bind a loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
}
