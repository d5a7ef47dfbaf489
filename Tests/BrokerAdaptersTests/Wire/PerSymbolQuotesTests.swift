import Domain
import Foundation
import Networking
import Synchronization
import Testing
@testable import BrokerAdapters

@Suite struct PerSymbolQuotesTests {
    let stamp = Date(timeIntervalSince1970: 1_731_528_912)

    /// Answers from a table; records the order symbols were fetched in.
    final class Answers: Sendable {
        let table: [String: Result<CommonQuote, BrokerError>]
        private let fetched = Mutex<[String]>([])

        init(_ table: [String: Result<CommonQuote, BrokerError>]) { self.table = table }

        var order: [String] { fetched.withLock { $0 } }

        func fetch(_ symbol: String) -> Result<CommonQuote, BrokerError> {
            fetched.withLock { $0.append(symbol) }
            return table[symbol] ?? .failure(.unknownSymbol(symbol))
        }
    }

    func collect(
        _ symbols: [String], answers: Answers, maxInFlight: Int = 1,
        request: (String) -> Result<String, RequestConstructionError> = { .success($0) }
    ) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        try await PerSymbolQuotes.collect(
            symbols, maxInFlight: maxInFlight, request: request,
            endsBatch: { error in if case .rateLimited = error { true } else { false } },
            fetch: { request, _ in answers.fetch(request) }
        )
    }

    func quote(_ symbol: String) -> Result<CommonQuote, BrokerError> {
        .success(CommonQuote(symbol: symbol, last: 10, timestamp: stamp))
    }

    @Test func aFailureThatHoldsForAllStopsTheRestUnsent() async throws {
        let answers = Answers(["A": quote("A"), "B": .failure(.rateLimited(retryAfter: 12)), "C": quote("C")])
        let results = try await collect(["A", "B", "C", "D"], answers: answers)
        #expect(answers.order == ["A", "B"])
        #expect(results["A"] == quote("A"))
        #expect(results["B"] == .failure(.rateLimited(retryAfter: 12)))
        #expect(results["C"] == .failure(.rateLimited(retryAfter: 12)))
        #expect(results["D"] == .failure(.rateLimited(retryAfter: 12)))
    }

    @Test func otherFailuresDoNotStopTheBatch() async throws {
        let answers = Answers(["A": .failure(.server(status: 502)), "C": quote("C")])
        let results = try await collect(["A", "B", "C"], answers: answers)
        #expect(answers.order == ["A", "B", "C"])
        #expect(results == ["A": .failure(.server(status: 502)), "B": .failure(.unknownSymbol("B")), "C": quote("C")])
    }

    @Test func everySentSymbolUnauthorizedAlikeThrows() async {
        let rejected = BrokerError.unauthorized(hint: "check KEY")
        let answers = Answers(["A": .failure(rejected), "B": .failure(rejected)])
        await #expect(throws: rejected) { try await collect(["A", "B", "not a symbol"], answers: answers, maxInFlight: 4) }
    }

    @Test func unauthorizedOnSomeRowsOnlyStaysOnThoseRows() async throws {
        let plan = BrokerError.unauthorized(hint: "plan")
        let results = try await collect(["A", "B"], answers: Answers(["A": .failure(plan), "B": quote("B")]), maxInFlight: 4)
        #expect(results == ["A": .failure(plan), "B": quote("B")])
        let mixed = try await collect(
            ["A", "B"], answers: Answers(["A": .failure(plan), "B": .failure(.unauthorized(hint: "key"))]), maxInFlight: 4
        )
        #expect(mixed.count == 2)
    }

    @Test func aConstructionFailureOtherThanTheSymbolThrowsBeforeSending() async {
        let answers = Answers([:])
        await #expect(throws: BrokerError.unauthorized(hint: "set KEY")) {
            try await collect(["A"], answers: answers, request: { _ in .failure(.missingCredential(broker: "x", variable: "KEY")) })
        }
        #expect(answers.order.isEmpty)
    }

    @Test func aSymbolTheFactoryRejectsFailsOnlyItsRow() async throws {
        let answers = Answers(["A": quote("A")])
        let results = try await collect(["A", "b"], answers: answers, request: { symbol in
            symbol == "B" ? .failure(.invalidSymbol(symbol)) : .success(symbol)
        })
        #expect(results == ["A": quote("A"), "b": .failure(.unknownSymbol("b"))])
        #expect(answers.order == ["A"])
    }

    @Test func unprintableInputIsEscapedInItsError() async throws {
        let results = try await collect(["A\u{1B}[2J"], answers: Answers([:]))
        #expect(results["A\u{1B}[2J"] == .failure(.unknownSymbol("A\\u{1b}[2J")))
    }

    @Test func cancellationThrowsCancelled() async {
        let answers = Answers([:])
        let task = Task { () async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await collect(["A", "B", "C"], answers: answers)
        }
        await #expect(throws: BrokerError.cancelled) { try await task.value }
    }
}
