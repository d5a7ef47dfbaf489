import Testing
import TestSupport

/// The restart scenario of every live stream suite: quotes flow, the fixture server stops and the client
/// sees its stream end, then a server restarted on the same port takes a new connection and every symbol
/// the hub resubscribes, old and new, streams again from its first tick. Each suite passes only how it
/// connects and subscribes.
enum LiveStreamRestart {
    static let symbols: Set<String> = ["AAPL", "MSFT"]
    /// What the hub resubscribes after a reconnect: the old symbols and NVDA, added while the server was down.
    static let resubscribed: Set<String> = ["AAPL", "MSFT", "NVDA"]

    /// `connect` opens a client to the server and subscribes it to the symbols given.
    static func run<Client: LiveStreamClient>(
        _ broker: String, connect: (PythonPeer, Set<String>) async throws -> Client
    ) async throws {
        let peer = try await LiveStreamFixture.start(broker)
        let client = try await connect(peer, symbols)
        _ = try await client.prices(each: symbols, count: 2)

        await peer.stop()
        try await client.expectEndOnceServerStopped()
        await client.close()

        let restarted = try await LiveStreamFixture.start(broker, port: peer.port)
        let resumed = try await connect(restarted, resubscribed)
        let prices = try await resumed.prices(each: resubscribed, count: 3)
        for symbol in resubscribed.sorted() {
            #expect(prices[symbol] == LiveStreamFixture.prices(symbol, count: 3), "\(broker): \(symbol) resumes from its first tick")
        }
        await resumed.close()
    }
}
