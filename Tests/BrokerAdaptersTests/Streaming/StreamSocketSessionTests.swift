import Domain
import Foundation
import Networking
import Testing

@testable import BrokerAdapters

/// How a session ends when a send fails: the connection's own reason, heard by the reader, outranks
/// the write error (an auth failure must stay permanent, not become a retried "broken pipe").
@Suite struct StreamSocketSessionTests {
    private static let connected = #"[{"ev":"status","status":"connected","message":"Connected Successfully"}]"#
    private static let authSuccess = #"[{"ev":"status","status":"auth_success","message":"authenticated"}]"#

    /// A Polygon session past auth; `grace` is how long a failed send waits for the reader.
    private static func liveSession(grace: Duration) async throws -> (StreamSessionTestSocket, any QuoteStreamSession, StreamSessionTestEvents) {
        let socket = StreamSessionTestSocket()
        let machine = PolygonStreamStateMachine(apiKey: "test-key", credentialHint: "check POLYGON_API_KEY")
        let session = StreamSocketSession(connection: socket, machine: machine, writeFailureGrace: grace)
        let events = StreamSessionTestEvents(session)
        socket.serverSends(connected)
        _ = try await socket.nextSent()
        socket.serverSends(authSuccess)
        #expect(try await events.next() == .event(.live))
        return (socket, session, events)
    }

    @Test func theBrokersCloseCodeOutranksTheWriteErrorItCaused() async throws {
        // A grace far longer than the test: only the reader can end this session in time.
        let (socket, session, events) = try await Self.liveSession(grace: .seconds(60))
        socket.sendsFail(with: .network("broken pipe"))
        await session.subscribe(["AAPL"])
        // The failed attempt is seen before the server's close arrives, as when a write races a close.
        #expect(try await socket.nextSent() == #"{"action":"subscribe","params":"T.AAPL,Q.AAPL"}"#)
        socket.serverDrops(.closed(code: 1008, reason: "policy violation"))
        #expect(try await events.next() == .failed(.network("polygon stream: closed by server (1008): policy violation")))
    }

    @Test func theWriteErrorEndsTheSessionWhenTheReaderHearsNothing() async throws {
        let (socket, session, events) = try await Self.liveSession(grace: .milliseconds(10))
        socket.sendsFail(with: .network("broken pipe"))
        await session.subscribe(["AAPL"])
        #expect(try await events.next() == .failed(.network("polygon stream: broken pipe")))
        await session.close()
    }

    @Test func aRefusedMessageEndsTheSessionAtOnce() async throws {
        let (socket, session, events) = try await Self.liveSession(grace: .seconds(60))
        socket.sendsFail(with: .protocolViolation("message of 2000000 bytes is over the limit"))
        await session.subscribe(["AAPL"])
        #expect(try await events.next() == .failed(.network("polygon stream: protocol error: message of 2000000 bytes is over the limit")))
        await session.close()
    }
    // MARK: Frames that do not decode

    /// One undecodable frame among good ones is skipped and reported; the session, and the connection,
    /// go on. Before, it ended the session (`bad response`), and the app closed and reopened the socket.
    @Test func anUndecodableFrameIsSkippedAndTheSessionGoesOn() async throws {
        let (socket, session, events) = try await Self.liveSession(grace: .seconds(60))
        await session.subscribe(["AAPL"])
        _ = try await socket.nextSent()

        socket.serverSends(#"[{"ev":"T","sym":"AAPL","p":190.5,"t":1700000000000}"#)
        socket.serverSends(#"[{"ev":"T","sym":"AAPL","p":191.25,"t":1700000001000}]"#)

        guard case .event(.skippedFrame(let reason))? = try await events.next() else {
            Issue.record("expected a skipped frame, got \(events.pending)")
            return
        }
        #expect(reason.hasPrefix("malformed JSON at byte"), "\(reason)")
        #expect(try await events.nextQuote()?.last == exactDecimal("191.25"))
        #expect(socket.closeCode == nil)
        await session.close()
    }

    /// The frames of one read go through the machine in order, an undecodable one among them reported
    /// where it came. Its events decoded before the fault are dropped with it: the reused buffer the read
    /// decodes into must not hand them on.
    @Test func aReadsFramesKeepTheirOrderAndABrokenFrameLeavesNoEvents() async throws {
        let (socket, session, events) = try await Self.liveSession(grace: .seconds(60))
        await session.subscribe(["AAPL", "MSFT"])
        _ = try await socket.nextSent()

        socket.serverSends(together: [
            #"[{"ev":"T","sym":"AAPL","p":190.5,"t":1700000000000}]"#,
            #"[{"ev":"T","sym":"MSFT","p":999,"t":1700000000500},{"ev":"T","sym":"AAPL","#,
            #"[{"ev":"T","sym":"MSFT","p":410.25,"t":1700000001000},{"ev":"T","sym":"AAPL","p":191,"t":1700000001000}]"#,
        ])

        #expect(try await events.nextQuote() == CommonQuote(symbol: "AAPL", last: exactDecimal("190.5"), timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
        guard case .event(.skippedFrame)? = try await events.next() else {
            Issue.record("expected a skipped frame, got \(events.pending)")
            return
        }
        #expect(try await events.nextQuote() == CommonQuote(symbol: "MSFT", last: exactDecimal("410.25"), timestamp: Date(timeIntervalSince1970: 1_700_000_001)))
        #expect(try await events.nextQuote() == CommonQuote(symbol: "AAPL", last: exactDecimal("191"), timestamp: Date(timeIntervalSince1970: 1_700_000_001)))
        await session.close()
    }

    /// A WebSocket protocol error (bad UTF-8, a bad frame header) is the connection's fault: it ends the session.
    @Test func aProtocolErrorEndsTheSession() async throws {
        let (socket, _, events) = try await Self.liveSession(grace: .seconds(60))
        socket.serverSends("not json")
        guard case .event(.skippedFrame)? = try await events.next() else {
            Issue.record("expected a skipped frame, got \(events.pending)")
            return
        }

        socket.serverDrops(.protocolViolation("invalid UTF-8 in a text frame"))

        #expect(try await events.next() == .failed(.network("polygon stream: protocol error: invalid UTF-8 in a text frame")))
    }
}
