import Domain
import Foundation
import Networking
import Testing
import TestSupport

/// The Tradier market-events fixture server (reference §1.5, the WebSocket half) through the real
/// WebSocket client, spoken by hand until the Tradier stream service exists: the session id in the
/// payload, one object per frame with its line break, string-typed trade numbers, the error frames, a
/// full-replace resubscribe, and a restart on the same port.
@Suite struct LiveStreamTradierTests {
    static func connect(_ peer: PythonPeer) async throws -> LiveStreamRawSocket {
        try await LiveStreamRawSocket(LiveStreamFixture.webSocketURL(peer, "/v1/markets/events"))
    }

    static func payload(_ symbols: [String], session: String = "test-session") -> String {
        let list = symbols.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"symbols":[\#(list)],"sessionid":"\#(session)","filter":["trade","quote"],"linebreak":true,"validOnly":true,"advancedDetails":false}"#
    }

    @Test func anUnknownSessionGetsTheSessionNotFoundError() async throws {
        let peer = try await LiveStreamFixture.start("tradier")
        let socket = try await Self.connect(peer)
        try await socket.send(Self.payload(["AAPL"], session: "c8638963-a6d4-4fb9-9bc6-e25fbd8c60c3"))
        #expect(try await socket.nextText() == "{\"error\":\"session not found\"}\n")
        #expect(await peer.line(where: { $0 == "AUTH failed" }) != nil)
        // The socket stays open: a payload with a fresh session id starts the stream.
        try await socket.send(Self.payload(["AAPL"]))
        #expect(try await socket.nextObject()["symbol"] as? String == "AAPL")
        await socket.close()
    }

    @Test func tradesAndQuotesCarryTheFixturePricesOneObjectPerFrameAndAResendReplacesTheSymbols() async throws {
        let peer = try await LiveStreamFixture.start("tradier")
        let socket = try await Self.connect(peer)
        try await socket.send(Self.payload(["AAPL", "ZZZZ", "MSFT"]))
        #expect(try await socket.nextText() == "{\"error\":\"ZZZZ is not a valid symbol\"}\n")
        #expect(await peer.line(where: { $0 == "SUBSCRIBED AAPL MSFT" }) != nil)

        var frames: [String] = []
        for _ in 0..<4 { frames.append(try await socket.nextText()) }
        #expect(frames.allSatisfy { $0.hasSuffix("}\n") }, "linebreak:true ends each object with a newline")
        #expect(frames[0] == #"{"type":"trade","symbol":"AAPL","exch":"Q","price":"386","size":"200","cvol":"38211905","date":"\#(Self.date(frames[0]))","last":"386"}"# + "\n")
        let quote = try #require(try JSONSerialization.jsonObject(with: Data(frames[1].utf8)) as? [String: Any])
        #expect(quote["type"] as? String == "quote" && quote["bid"] as? Double == 385.99 && quote["ask"] as? Double == 386.01)
        #expect(quote["biddate"] is String, "quote prices are numbers, its dates strings")
        #expect(frames[2].contains(#""type":"trade","symbol":"MSFT""#) && frames[2].contains(#""price":"414""#))

        // The second tick moves each price by one cent.
        let next = try await socket.nextObject()
        #expect(next["symbol"] as? String == "AAPL" && next["price"] as? String == "386.01")

        try await socket.send(Self.payload(["MSFT"]))
        #expect(await peer.line(where: { $0 == "SUBSCRIBED MSFT" }) != nil)
        // Frames already on the wire may still name AAPL; once two ticks came with MSFT alone, none does.
        var seen: [String] = []
        while seen.suffix(4) != ["MSFT", "MSFT", "MSFT", "MSFT"] {
            seen.append(try await socket.nextObject()["symbol"] as? String ?? "?")
        }
        for _ in 0..<4 { #expect(try await socket.nextObject()["symbol"] as? String == "MSFT") }
        await socket.close()
    }

    @Test func aStoppedServerEndsTheConnectionAndARestartedOneStreamsAgain() async throws {
        try await LiveStreamRestart.run("tradier") { peer, symbols in
            let socket = try await Self.connect(peer)
            try await socket.send(Self.payload(symbols.sorted()))
            return LiveStreamRawClient(socket, trades: Self.trades)
        }
    }

    /// A frame's symbol, with its price when it is a trade (`price` is a string on this stream). Every
    /// frame of a running stream names a symbol.
    @Sendable static func trades(_ frame: [String: Any]) throws -> [(symbol: String, price: ExactDecimal?)] {
        guard let symbol = frame["symbol"] as? String else { throw LiveStreamFixture.Failure(description: "a frame of no symbol: \(frame)") }
        let price = frame["type"] as? String == "trade" ? (frame["price"] as? String).flatMap { ExactDecimal(parsing: $0) } : nil
        return [(symbol: symbol, price: price)]
    }

    /// The `date` field of a trade frame (the wall clock, so not fixed).
    static func date(_ frame: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any] else { return "?" }
        return object["date"] as? String ?? "?"
    }
}
