/// How many symbols and subscribers a hub run has. "1x100" is one symbol with 100 subscribers;
/// "100x10" is 100 symbols followed by each of 10 subscribers.
struct HubShape: Sendable, Hashable {
    var symbolCount: Int
    var subscriberCount: Int

    var label: String { "\(symbolCount)x\(subscriberCount)" }
    var symbols: [String] { (0..<symbolCount).map(BenchQuote.symbol) }

    static let all = [
        HubShape(symbolCount: 1, subscriberCount: 1),
        HubShape(symbolCount: 1, subscriberCount: 10),
        HubShape(symbolCount: 1, subscriberCount: 100),
        HubShape(symbolCount: 1, subscriberCount: 1000),
        HubShape(symbolCount: 100, subscriberCount: 10),
    ]
}
