import Domain
import Foundation

/// How a session's `events` stream went, one element at a time, for tests that await each with a deadline.
enum StreamSessionTestOutcome: Sendable, Hashable {
    case event(QuoteEvent)
    case finished
    case failed(BrokerError)
}

/// Reads a session's `events` on a task of its own into an inbox.
final class StreamSessionTestEvents: Sendable {
    private let inbox = StreamSessionTestInbox<StreamSessionTestOutcome>()
    private let reader: Task<Void, Never>

    init(_ session: any QuoteStreamSession) {
        let inbox = self.inbox
        reader = Task {
            do {
                for try await event in session.events { inbox.put(.event(event)) }
                inbox.put(.finished)
            } catch let error as BrokerError {
                inbox.put(.failed(error))
            } catch {
                inbox.put(.failed(.badResponse("not a BrokerError: \(error)")))
            }
            inbox.finish()
        }
    }

    deinit {
        reader.cancel()
    }

    func next(timeout: Duration = .seconds(30)) async throws -> StreamSessionTestOutcome? {
        try await inbox.next(timeout: timeout)
    }

    /// The next quote, skipping nothing: anything else is returned as a failure to match.
    func nextQuote(timeout: Duration = .seconds(30)) async throws -> CommonQuote? {
        guard case .event(.quote(let quote)) = try await next(timeout: timeout) else { return nil }
        return quote
    }

    var pending: [StreamSessionTestOutcome] { inbox.pending }
}
