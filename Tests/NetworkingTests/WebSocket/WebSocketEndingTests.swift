@testable import Networking
import Testing

/// Which reason for a connection's end its consumer hears, with the causes fed in every order the I/O
/// thread can meet them.
@Suite struct WebSocketEndingTests {
    private static let writeFailure = WebSocketEnding.Cause.failed(.network("connection lost"))
    private static let authFailedClose = WebSocketEnding.Cause.peerClosed(code: 4003, reason: "auth failed")

    /// The race this type settles: our write failed on the reset that followed the broker's auth-failure
    /// close, and the close frame was read only afterwards.
    @Test func peerCloseReadAfterAWriteFailureIsWhatTheConsumerHears() {
        var ending = WebSocketEnding()

        #expect(ending.record(Self.writeFailure) == nil, "held: the reader may still find something better")
        #expect(ending.record(Self.authFailedClose) == .failed(.closed(code: 4003, reason: "auth failed")))
        #expect(ending.conclude() == nil, "already reported")
    }

    @Test func peerCloseReadBeforeAWriteFailureStands() {
        var ending = WebSocketEnding()

        #expect(ending.record(Self.authFailedClose) == .failed(.closed(code: 4003, reason: "auth failed")), "reported at once")
        #expect(ending.record(Self.writeFailure) == nil)
        #expect(ending.conclude() == nil)
        #expect(ending.cause == Self.authFailedClose)
    }

    @Test func protocolViolationOutranksAWriteFailure() {
        var ending = WebSocketEnding()

        _ = ending.record(.failed(.network("connection lost")))
        #expect(ending.record(.protocolViolation("invalid UTF-8 in a text message")) == .failed(.protocolViolation("invalid UTF-8 in a text message")))
    }

    /// A normal closure from the peer is its word too: a clean end, not the write's error.
    @Test(arguments: [UInt16?.none, 1000])
    func normalClosureAfterAWriteFailureFinishesCleanly(code: UInt16?) {
        var ending = WebSocketEnding()

        _ = ending.record(Self.writeFailure)
        #expect(ending.record(.peerClosed(code: code, reason: "")) == .finished)
    }

    @Test func writeFailureAloneIsReportedAtTheEnd() {
        var ending = WebSocketEnding()

        #expect(ending.record(Self.writeFailure) == nil)
        #expect(ending.conclude() == .failed(.network("connection lost")))
        #expect(ending.conclude() == nil)
    }

    /// Among our side's failures, and within the peer's word, the first seen stands.
    @Test func amongEqualsTheFirstStands() {
        var ours = WebSocketEnding()
        _ = ours.record(.failed(.timedOut("no data for 40s")))
        _ = ours.record(Self.writeFailure)
        #expect(ours.conclude() == .failed(.timedOut("no data for 40s")))

        var peers = WebSocketEnding()
        _ = peers.record(Self.authFailedClose)
        #expect(peers.record(.protocolViolation("frame after close")) == nil)
        #expect(peers.cause == Self.authFailedClose)
    }

    @Test func nothingRecordedIsACleanEnd() {
        var ending = WebSocketEnding()
        #expect(ending.conclude() == .finished)
    }
}
