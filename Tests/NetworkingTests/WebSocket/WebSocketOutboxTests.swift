@testable import Networking
import Testing

/// The send queue's closing rule (RFC 6455 §5.5.1), driven without sockets. Completions are the
/// senders' names; frames are short byte strings whose first byte tells them apart.
@Suite struct WebSocketOutboxTests {
    private static let close: [UInt8] = [0x88, 0x00]
    private static let pong: [UInt8] = [0x8A, 0x00]
    private static let ping: [UInt8] = [0x89, 0x00]

    /// Writes everything whole, as a socket that always takes it all would; returns the frames written
    /// and the senders told their message was sent.
    private static func drain(_ outbox: inout WebSocketOutbox<String>) -> (frames: [[UInt8]], sent: [String]) {
        var frames: [[UInt8]] = []
        var sent: [String] = []
        while let unwritten = outbox.unwritten {
            frames.append(Array(unwritten))
            if let sender = outbox.wrote(unwritten.count) { sent.append(sender) }
        }
        return (frames, sent)
    }

    @Test func framesAreWrittenInOrderAndDataSendersAreToldWhenTheirFrameIsWhole() {
        var outbox = WebSocketOutbox<String>()
        #expect(outbox.appendData([0x81, 0x01, 0x61], completion: "a") == nil)
        outbox.appendControl(Self.pong)
        #expect(outbox.appendData([0x82, 0x01, 0x62], completion: "b") == nil)

        #expect(outbox.wrote(2) == nil, "half a frame is not sent yet")
        #expect(outbox.unwritten == [0x61])
        #expect(outbox.wrote(1) == "a")

        let (frames, sent) = Self.drain(&outbox)
        #expect(frames == [Self.pong, [0x82, 0x01, 0x62]])
        #expect(sent == ["b"])
        #expect(outbox.isEmpty)
    }

    /// The defect this type fixes: data queued when a close starts went out after the close frame and
    /// its senders heard it was sent.
    @Test func closeDisplacesDataNotYetBegunAndNothingFollowsIt() {
        var outbox = WebSocketOutbox<String>()
        _ = outbox.appendData([0x81, 0x01, 0x61], completion: "queued first")
        _ = outbox.appendData([0x81, 0x01, 0x62], completion: "queued second")

        #expect(outbox.startClose(Self.close) == ["queued first", "queued second"])
        #expect(outbox.appendData([0x81, 0x01, 0x63], completion: "after the close") == "after the close", "refused, to be failed")

        let (frames, sent) = Self.drain(&outbox)
        #expect(frames == [Self.close])
        #expect(sent.isEmpty)
    }

    /// A frame cannot be cut: one partly written is finished before the close, and its sender hears so.
    @Test func dataFramePartlyWrittenIsFinishedBeforeTheClose() {
        var outbox = WebSocketOutbox<String>()
        _ = outbox.appendData([0x81, 0x03, 0x61, 0x62, 0x63], completion: "on the wire")
        _ = outbox.appendData([0x81, 0x01, 0x64], completion: "not begun")
        #expect(outbox.wrote(3) == nil)

        #expect(outbox.startClose(Self.close) == ["not begun"])

        let (frames, sent) = Self.drain(&outbox)
        #expect(frames == [[0x62, 0x63], Self.close])
        #expect(sent == ["on the wire"])
    }

    /// A pong owed for a ping that came before the close keeps its place ahead of the close frame;
    /// control frames queued after the close are dropped.
    @Test func controlFramesQueuedBeforeTheCloseStayAheadOfIt() {
        var outbox = WebSocketOutbox<String>()
        _ = outbox.appendData([0x81, 0x01, 0x61], completion: "data")
        outbox.appendControl(Self.pong)

        #expect(outbox.startClose(Self.close) == ["data"])
        outbox.appendControl(Self.ping)

        #expect(Self.drain(&outbox).frames == [Self.pong, Self.close])
    }

    @Test func onlyTheFirstCloseCounts() {
        var outbox = WebSocketOutbox<String>()
        #expect(!outbox.isClosing)
        #expect(outbox.startClose(Self.close).isEmpty)
        #expect(outbox.startClose([0x88, 0x02, 0x03, 0xE9]).isEmpty)

        #expect(outbox.isClosing)
        #expect(Self.drain(&outbox).frames == [Self.close])
    }

    @Test func removeAllReturnsEveryWaitingSender() {
        var outbox = WebSocketOutbox<String>()
        _ = outbox.appendData([0x81, 0x01, 0x61], completion: "a")
        outbox.appendControl(Self.ping)
        _ = outbox.appendData([0x81, 0x01, 0x62], completion: "b")
        _ = outbox.wrote(1)

        #expect(outbox.removeAll() == ["a", "b"])
        #expect(outbox.isEmpty && outbox.unwritten == nil)
    }
}
