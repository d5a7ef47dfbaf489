import Domain
import Foundation
import Locking
import Networking

/// A `RequestServicer` with no network, shared by the broker tests: it answers from a broker's
/// routes.json as the fixture server would (`FixtureRoutes`), or from a closure. It keeps every request
/// with the secret names it was sent with, and the most requests it ever had in flight at once.
final class FixtureRoutesServicer: RequestServicer {
    typealias Answer = @Sendable (HTTPRequest) throws(BrokerError) -> HTTPResponse

    struct Sent: Sendable {
        var request: HTTPRequest
        var secretNames: Set<String>
        var url: String { request.url.absoluteString }
        /// The comma-separated `symbols` query item of a batch request.
        var symbols: [String] {
            let items = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            return items.first { $0.name == "symbols" }?.value?.split(separator: ",").map(String.init) ?? []
        }
    }

    private struct State {
        var sent: [Sent] = []
        var inFlight = 0
        var maxInFlight = 0
    }

    private let answer: Answer
    private let state = Locked(State())

    init(answer: @escaping Answer) {
        self.answer = answer
    }

    /// Answers from `Tests/Fixtures/<broker>/routes.json`.
    convenience init(broker: String) throws {
        let routes = try FixtureRoutes.load(broker: broker)
        self.init { request throws(BrokerError) in try routes.answer(request) }
    }

    /// Always the same answer.
    static func answering(
        status: Int, headers: [String: String] = ["Content-Type": "application/json"], body: String
    ) -> FixtureRoutesServicer {
        FixtureRoutesServicer { _ throws(BrokerError) in HTTPResponse(status: status, headers: headers, body: Data(body.utf8)) }
    }

    /// Every request sent so far, in arrival order.
    var sent: [Sent] { state.withLock { $0.sent } }
    var requests: [HTTPRequest] { sent.map(\.request) }
    var maxInFlight: Int { state.withLock { $0.maxInFlight } }

    func send(_ request: HTTPRequest, secretNames: Set<String>) async throws(BrokerError) -> HTTPResponse {
        state.withLock {
            $0.sent.append(Sent(request: request, secretNames: secretNames))
            $0.inFlight += 1
            $0.maxInFlight = max($0.maxInFlight, $0.inFlight)
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        // Give sibling requests the chance to overlap, so `maxInFlight` sees real concurrency.
        for _ in 0..<3 { await Task.yield() }
        return try answer(request)
    }
}
