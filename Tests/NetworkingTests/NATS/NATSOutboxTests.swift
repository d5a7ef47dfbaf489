@testable import Networking
import Testing

/// The outgoing buffer's rules, without sockets: what a write finishes, and what survives a lost connection.
@Suite struct NATSOutboxTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func writesReportFinishedPublicationsAndPingsInOrder() {
        var outbox = NATSOutbox()
        outbox.append(Self.bytes("PUB a 1\r\nx\r\n"), kind: .publication)
        outbox.append(Self.bytes("PING\r\n"), kind: .ping(flushID: 7))
        outbox.append(Self.bytes("SUB b 1\r\n"), kind: .control)
        outbox.append(Self.bytes("PING\r\n"), kind: .ping(flushID: nil))
        #expect(outbox.byteCount == 12 + 6 + 9 + 6)
        #expect(outbox.wrote(5) == NATSOutbox.Finished())
        #expect(outbox.wrote(7) == NATSOutbox.Finished(publicationBytes: 12, pings: []))
        #expect(outbox.wrote(6 + 9 + 3) == NATSOutbox.Finished(publicationBytes: 0, pings: [7]))
        #expect(outbox.wrote(3) == NATSOutbox.Finished(publicationBytes: 0, pings: [nil]))
        #expect(outbox.isEmpty)
    }

    @Test func aLostConnectionKeepsPublicationsAndFlushPingsRewindingAPartialOne() {
        var outbox = NATSOutbox()
        outbox.append(Self.bytes("PUB a 1\r\nx\r\n"), kind: .publication)
        outbox.append(Self.bytes("PONG\r\n"), kind: .control)
        outbox.append(Self.bytes("PUB b 1\r\ny\r\n"), kind: .publication)
        outbox.append(Self.bytes("PING\r\n"), kind: .ping(flushID: nil))
        outbox.append(Self.bytes("PING\r\n"), kind: .ping(flushID: 3))
        _ = outbox.wrote(12 + 6 + 4)
        outbox.connectionLost()
        #expect(Array(outbox.unwritten) == Self.bytes("PUB b 1\r\ny\r\nPING\r\n"), "the PUB begun is sent again whole")

        outbox.prepend([Self.bytes("SUB s 1\r\n"), Self.bytes("SUB t 2\r\n")])
        #expect(Array(outbox.unwritten) == Self.bytes("SUB s 1\r\nSUB t 2\r\nPUB b 1\r\ny\r\nPING\r\n"))
        #expect(outbox.wrote(outbox.byteCount) == NATSOutbox.Finished(publicationBytes: 12, pings: [3]))
    }

    @Test func removingEverythingReportsWhatWasNeverWritten() {
        var outbox = NATSOutbox()
        outbox.append(Self.bytes("PUB a 1\r\nx\r\n"), kind: .publication)
        outbox.append(Self.bytes("PING\r\n"), kind: .ping(flushID: 1))
        _ = outbox.wrote(4)
        #expect(outbox.removeAll() == NATSOutbox.Finished(publicationBytes: 12, pings: [1]))
        #expect(outbox.isEmpty && outbox.operationCount == 0)
    }

    @Test func longRunsCompactWithoutLosingBoundaries() {
        var outbox = NATSOutbox()
        let operation = [UInt8](repeating: 0x41, count: 1000)
        var released = 0
        for round in 0..<300 {
            outbox.append(operation, kind: .publication)
            if round % 3 == 2 { released += outbox.wrote(outbox.byteCount - 500).publicationBytes }
        }
        released += outbox.wrote(outbox.byteCount).publicationBytes
        #expect(released == 300 * 1000)
        #expect(outbox.isEmpty)
    }
}
