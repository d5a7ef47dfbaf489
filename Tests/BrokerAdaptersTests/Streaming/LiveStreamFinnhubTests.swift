import Domain
import Foundation
import Networking
import Testing
import TestSupport

/// The Finnhub stream fixture server (reference §4.2) through the real WebSocket client, spoken by hand
/// until the Finnhub stream service exists: query-token auth, unacknowledged subscribes, batched trades,
/// pings, the error message, and a restart on the same port.
@Suite struct LiveStreamFinnhubTests {
    static func connect(_ peer: PythonPeer, token: String = "test-key") async throws -> LiveStreamRawSocket {
        try await LiveStreamRawSocket(LiveStreamFixture.webSocketURL(peer, "/?token=\(token)"))
    }

    /// JSONSerialization reads the server's prices as `Double`; the fixture's are whole cents, so they are
    /// taken to cents before they are compared with the exact prices the session reads.
    static func cents(_ price: Double) -> ExactDecimal {
        ExactDecimal(units: Int64((price * 100).rounded()) * 1_000_000)
    }

    /// The trades of a `trade` message; other messages (pings, errors) carry none.
    @Sendable static func trades(_ message: [String: Any]) throws -> [(symbol: String, price: ExactDecimal?)] {
        guard message["type"] as? String == "trade", let data = message["data"] as? [[String: Any]] else { return [] }
        return try data.map { trade in
            guard let symbol = trade["s"] as? String, let price = trade["p"] as? Double else {
                throw LiveStreamFixture.Failure(description: "a trade without a symbol or price: \(trade)")
            }
            return (symbol: symbol, price: cents(price))
        }
    }

    @Test func aBadTokenIsRefusedOnTheUpgradeWith401() async throws {
        let peer = try await LiveStreamFixture.start("finnhub")
        do {
            _ = try await Self.connect(peer, token: "wrong-token")
            Issue.record("the upgrade must be refused")
        } catch let error as WebSocketError {
            guard case .handshakeFailed(let status, _) = error else {
                Issue.record("expected a refused upgrade, got \(error)")
                return
            }
            #expect(status == 401)
        }
        #expect(await peer.line(where: { $0 == "AUTH failed" }) != nil)
    }

    @Test func subscribedSymbolsTradeAtTheFixturePricesAndZZZZGetsAnError() async throws {
        let peer = try await LiveStreamFixture.start("finnhub")
        let socket = try await Self.connect(peer)
        for symbol in ["AAPL", "ZZZZ", "MSFT"] {
            try await socket.send(#"{"type":"subscribe","symbol":"\#(symbol)"}"#)
        }
        #expect(await peer.line(where: { $0 == "SUBSCRIBED AAPL MSFT" }) != nil)
        #expect(await peer.line(where: { $0 == "REJECTED ZZZZ invalid" }) != nil)
        // Subscribes are not acknowledged; the error for ZZZZ comes among the trade batches. Batches from
        // before MSFT's subscribe hold AAPL alone; they are all read here, up to the first with MSFT.
        var errors: [String] = []
        var aapl: [[String: Any]] = []
        var sawMSFT = false
        while aapl.count < 5 || errors.isEmpty || !sawMSFT {
            let message = try await socket.nextObject()
            if message["type"] as? String == "error" { errors.append(message["msg"] as? String ?? "\(message)") }
            let trades = message["data"] as? [[String: Any]] ?? []
            aapl += trades.filter { $0["s"] as? String == "AAPL" }
            sawMSFT = sawMSFT || trades.contains { $0["s"] as? String == "MSFT" }
        }
        #expect(errors == ["Invalid symbol ZZZZ"])
        aapl = Array(aapl.prefix(5))
        #expect(aapl.map { ($0["p"] as? Double).map(Self.cents) } == LiveStreamFixture.prices("AAPL", count: 5))
        #expect(aapl.map { $0["v"] as? Int } == [100, 100, 100, 100, 0], "every fifth trade is a price-only update")
        #expect(aapl.allSatisfy { ($0["t"] as? Int64 ?? 0) > 1_600_000_000_000 }, "timestamps are milliseconds")

        try await socket.send(#"{"type":"unsubscribe","symbol":"MSFT"}"#)
        #expect(await peer.line(where: { $0 == "SUBSCRIBED AAPL" }) != nil)
        // Batches already on the wire may still hold MSFT; once one comes without it (MSFT was in every
        // batch since the one seen above), none does.
        var batch: [String] = []
        repeat {
            let message = try await socket.nextObject()
            batch = (message["data"] as? [[String: Any]] ?? []).compactMap { $0["s"] as? String }
        } while batch != ["AAPL"]
        for _ in 0..<3 {
            let message = try await socket.nextObject()
            #expect((message["data"] as? [[String: Any]])?.compactMap { $0["s"] as? String } == ["AAPL"])
        }
        await socket.close()
    }

    @Test func anIdleConnectionIsPinged() async throws {
        let peer = try await LiveStreamFixture.start("finnhub", ["--ping-interval", "0.05"])
        let socket = try await Self.connect(peer, token: "test-token")
        #expect(try await socket.nextText() == #"{"type":"ping"}"#)
        await socket.close()
    }

    @Test func aStoppedServerEndsTheConnectionAndARestartedOneTradesAgain() async throws {
        try await LiveStreamRestart.run("finnhub") { peer, symbols in
            let socket = try await Self.connect(peer)
            for symbol in symbols.sorted() { try await socket.send(#"{"type":"subscribe","symbol":"\#(symbol)"}"#) }
            return LiveStreamRawClient(socket, trades: Self.trades)
        }
    }
}
