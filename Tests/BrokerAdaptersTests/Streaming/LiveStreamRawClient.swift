import Domain
import Testing

/// A bare socket that speaks a broker's stream wire by hand, as a `LiveStreamClient`.
struct LiveStreamRawClient: LiveStreamClient {
    /// The trades one message carries, as symbol and price; a symbol's message without a price (a
    /// bid/ask) is an entry with no price. Throws for a message that belongs to no symbol where every
    /// message should.
    typealias Trades = @Sendable ([String: Any]) throws -> [(symbol: String, price: ExactDecimal?)]

    let socket: LiveStreamRawSocket
    let trades: Trades

    init(_ socket: LiveStreamRawSocket, trades: @escaping Trades) {
        self.socket = socket
        self.trades = trades
    }

    /// A message of a symbol outside `symbols` fails the read: only what was subscribed may stream.
    func prices(each symbols: Set<String>, count: Int) async throws -> [String: [ExactDecimal]] {
        var seen: [String: [ExactDecimal]] = [:]
        while symbols.contains(where: { (seen[$0]?.count ?? 0) < count }) {
            for (symbol, price) in try trades(try await socket.nextObject()) {
                guard symbols.contains(symbol) else {
                    throw LiveStreamFixture.Failure(description: "\(symbol) streams but only \(symbols.sorted()) are subscribed")
                }
                if let price { seen[symbol, default: []].append(price) }
            }
        }
        return seen.mapValues { Array($0.prefix(count)) }
    }

    func expectEndOnceServerStopped() async throws {
        #expect(try await socket.end() != nil, "the connection ends")
    }

    func close() async {
        await socket.close()
    }
}
