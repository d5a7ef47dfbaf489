import Dispatch
import Domain
import Foundation
import Locking
import TestSupport

/// A `QuoteService` whose answers a test scripts per call, and which records the symbols of each call.
/// Tests wait for a number of calls with `calls(atLeast:)` instead of sleeping.
final class ScriptedQuoteService: QuoteService {
    typealias Reply = Result<[String: Result<CommonQuote, BrokerError>], BrokerError>

    static let brand = ServiceBranding(id: "scripted", name: "Scripted", glyph: "S", color: .cyan)
    static let stamp = Date(timeIntervalSince1970: 1_750_000_000)

    var branding: ServiceBranding { Self.brand }

    private struct Watcher {
        let id: Int
        let count: Int
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var calls: [[String]] = []
        var watchers: [Watcher] = []
        var nextWatcherID = 0
    }

    private let state = Locked(State())
    /// The answer to call number `call` (0-based) for `symbols`.
    private let reply: @Sendable (_ call: Int, _ symbols: [String]) -> Reply

    init(reply: @escaping @Sendable (_ call: Int, _ symbols: [String]) -> Reply) {
        self.reply = reply
    }

    /// Answers every symbol with `price(call, symbol)`.
    convenience init(price: @escaping @Sendable (_ call: Int, _ symbol: String) -> Int = { _, _ in 100 }) {
        self.init { call, symbols in
            .success(Dictionary(uniqueKeysWithValues: symbols.map { ($0, .success(Self.quote($0, price(call, $0)))) }))
        }
    }

    /// A quote at `last` whole dollars, a cent either side, stamped `last` seconds after `stamp`.
    static func quote(_ symbol: String, _ last: Int) -> CommonQuote {
        let price = ExactDecimal(last)
        return CommonQuote(
            symbol: symbol, last: price, timestamp: stamp.addingTimeInterval(TimeInterval(last)),
            bid: price - exactDecimal("0.01"), ask: price + exactDecimal("0.01"))
    }

    var calls: [[String]] { state.withLock { $0.calls } }

    func quotes(for symbols: [String]) async throws(BrokerError) -> [String: Result<CommonQuote, BrokerError>] {
        let (call, satisfied) = state.withLock { state -> (Int, [Watcher]) in
            state.calls.append(symbols)
            let count = state.calls.count
            let satisfied = state.watchers.filter { count >= $0.count }
            state.watchers.removeAll { count >= $0.count }
            return (count - 1, satisfied)
        }
        satisfied.forEach { $0.continuation.resume(returning: true) }
        return try reply(call, symbols).get()
    }

    /// Waits until at least `count` calls were made; false after `timeout` of real time (scaled by
    /// `TestTime`), which only a broken implementation causes.
    func calls(atLeast count: Int, within timeout: Duration = .seconds(10)) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id = state.withLock { state -> Int? in
                guard state.calls.count < count else { return nil }
                defer { state.nextWatcherID += 1 }
                state.watchers.append(Watcher(id: state.nextWatcherID, count: count, continuation: continuation))
                return state.nextWatcherID
            }
            guard let id else {
                continuation.resume(returning: true)
                return
            }
            let seconds = Double(TestTime.scaled(timeout).components.seconds)
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                let expired = state.withLock { state -> Watcher? in
                    guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                    return state.watchers.remove(at: index)
                }
                expired?.continuation.resume(returning: false)
            }
        }
    }
}
