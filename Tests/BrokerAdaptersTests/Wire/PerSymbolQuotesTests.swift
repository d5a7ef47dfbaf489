import Domain
import Foundation
import Locking
import Networking
import Testing
@testable import BrokerAdapters

@Suite struct PerSymbolQuotesTests {
    let stamp = Date(timeIntervalSince1970: 1_731_528_912)

    /// Answers from a table; records the order symbols were fetched in. `failing` holds the symbols whose
    /// request fails (the fetch throws) rather than getting an answer.
    final class Answers: Sendable {
        let table: [String: Result<CommonQuote, BrokerError>]
        let failing: [String: BrokerError]
        private let fetched = Locked<[String]>([])

        init(_ table: [String: Result<CommonQuote, BrokerError>], failing: [String: BrokerError] = [:]) {
            self.table = table
            self.failing = failing
        }

        var order: [String] { fetched.withLock { $0 } }

        func fetch(_ symbol: String) throws(BrokerError) -> Result<CommonQuote, BrokerError> {
            fetched.withLock { $0.append(symbol) }
            if let failure = failing[symbol] { throw failure }
            return table[symbol] ?? .failure(.unknownSymbol(symbol))
        }
    }

    func collect(
        _ symbols: [String], answers: Answers, maxInFlight: Int = 1,
        request: (String) -> Result<String, RequestConstructionError> = { .success($0) }
    ) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        try await PerSymbolQuotes.collect(
            symbols, maxInFlight: maxInFlight, request: request,
            fetch: { request, _ throws(BrokerError) in try answers.fetch(request) }
        )
    }

    func quote(_ symbol: String) -> Result<CommonQuote, BrokerError> {
        .success(CommonQuote(symbol: symbol, last: 10, timestamp: stamp))
    }

    @Test func aFailedRequestFailsTheWholeCallAndStopsTheRestUnsent() async {
        let answers = Answers(["A": quote("A"), "C": quote("C")], failing: ["B": .rateLimited(retryAfter: 12)])
        await #expect(throws: BrokerError.rateLimited(retryAfter: 12)) { try await collect(["A", "B", "C", "D"], answers: answers) }
        #expect(answers.order == ["A", "B"])
    }

    /// A 5xx is the broker's failure, never a verdict on the row it was asked for.
    @Test func aServerErrorIsNotARowsResult() async {
        let answers = Answers(["C": quote("C")], failing: ["A": .server(status: 502)])
        await #expect(throws: BrokerError.server(status: 502)) { try await collect(["A", "B", "C"], answers: answers) }
        #expect(answers.order == ["A"])
    }

    @Test func aRateLimitWinsOverOtherFailuresSinceItSaysWhenToComeBack() async {
        let answers = Answers([:], failing: ["A": .server(status: 500), "B": .rateLimited(retryAfter: 5), "C": .network("reset")])
        await #expect(throws: BrokerError.rateLimited(retryAfter: 5)) { try await collect(["A", "B", "C"], answers: answers, maxInFlight: 4) }
    }

    @Test func verdictsStayOnTheirRows() async throws {
        let plan = BrokerError.unauthorized(hint: "plan")
        let results = try await collect(["A", "B", "C"], answers: Answers(["A": quote("A"), "C": .failure(plan)]), maxInFlight: 4)
        #expect(results == ["A": quote("A"), "B": .failure(.unknownSymbol("B")), "C": .failure(plan)])
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
