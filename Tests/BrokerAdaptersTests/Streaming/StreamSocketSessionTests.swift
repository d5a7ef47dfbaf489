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
}
