import Domain

/// The hub design this project started from (ADR-003), written from its description so both designs
/// run in one process on the same workloads: an actor holding, per symbol, an array of the
/// subscribers' `AsyncStream` continuations, each stream `.bufferingOldest(1000)`; every quote is
/// one actor call and one `yield` per subscriber. A full buffer drops the newest quote.
actor ReferenceHub {
    static let bufferLimit = 1000

    private struct Subscriber {
        let id: Int
        let continuation: AsyncStream<CommonQuote>.Continuation
    }

    private var subscribersBySymbol: [String: [Subscriber]] = [:]
    private var latest: [String: CommonQuote] = [:]
    private var nextID = 0

    func subscribe(symbols: Set<String>) -> AsyncStream<CommonQuote> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: CommonQuote.self, bufferingPolicy: .bufferingOldest(Self.bufferLimit))
        let id = nextID
        nextID += 1
        for symbol in symbols {
            subscribersBySymbol[symbol, default: []].append(Subscriber(id: id, continuation: continuation))
            if let cached = latest[symbol] { continuation.yield(cached) }
        }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id, from: symbols) }
        }
        return stream
    }

    func publish(_ quote: CommonQuote) {
        latest[quote.symbol] = quote
        guard let subscribers = subscribersBySymbol[quote.symbol] else { return }
        for subscriber in subscribers { subscriber.continuation.yield(quote) }
    }

    /// Ends every stream; subscribers still read what their buffers hold.
    func finishAll() {
        let all = subscribersBySymbol.values.joined().map(\.continuation)
        subscribersBySymbol = [:]
        for continuation in all { continuation.finish() }
    }

    private func unsubscribe(_ id: Int, from symbols: Set<String>) {
        for symbol in symbols {
            subscribersBySymbol[symbol]?.removeAll { $0.id == id }
            if subscribersBySymbol[symbol]?.isEmpty == true { subscribersBySymbol[symbol] = nil }
        }
    }
}
