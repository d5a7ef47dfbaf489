import Foundation
@testable import Networking
import Locking
import Testing

/// Read pacing in `WebSocketIOLoop`: while the pacing holds, bytes stay where they are; at the slot
/// they are read, and nothing is lost or reordered.
@Suite struct WebSocketReadPacingTests {
    /// Holds reading for `gap` after each read. The slot is given even once it has passed (a past slot
    /// reads now): every read after the first is a held one, however late a loaded machine (TSan) lets a
    /// thread come to it, so it is the slot reader's when there is one. (Answering nil for a passed slot,
    /// as the app's pacing does, made a read whose thread stalled past the gap the connection's own.)
    private struct GapAfterEachRead: WebSocketReadPacing {
        let gap: Duration
        func readSlot(lastRead: ContinuousClock.Instant?, lastSlot: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            lastRead.map { $0 + gap }
        }
    }

    /// Holds `first` after each read; asked again before the next read, it answers `moved`: the slot
    /// moved later while the reader slept (the frame before it drew late).
    private final class SlotMovesLater: WebSocketReadPacing {
        let first: Duration
        let moved: Duration
        private let answers = Locked<(lastRead: ContinuousClock.Instant?, count: Int)>((nil, 0))

        init(first: Duration, moved: Duration) {
            self.first = first
            self.moved = moved
        }

        func readSlot(lastRead: ContinuousClock.Instant?, lastSlot: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            guard let lastRead else { return nil }
            let count = answers.withLock { answers in
                if answers.lastRead != lastRead { answers = (lastRead, 0) }
                answers.count += 1
                return answers.count
            }
            // Given even once passed, as `GapAfterEachRead`'s.
            return lastRead + (count == 1 ? first : moved)
        }
    }

    /// Holds `far` after each read until the frames resume, 30 ms after the first read: from then on
    /// `near`, and the slot reader is told the slots may have moved, every 10 ms (for at most 10 s) until
    /// a read after the first was made (the first telling may come before the reader holds the slot).
    private final class SlotMovesEarlier: WebSocketReadPacing {
        let far: Duration
        let near: Duration
        let reader: WebSocketSlotReader
        private let state = Locked<(resumed: Bool, firstRead: ContinuousClock.Instant?, readAgain: Bool)>((false, nil, false))

        init(far: Duration, near: Duration, reader: WebSocketSlotReader) {
            self.far = far
            self.near = near
            self.reader = reader
        }

        func readSlot(lastRead: ContinuousClock.Instant?, lastSlot: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            guard let lastRead else { return nil }
            let (resumed, first) = state.withLock { state -> (Bool, Bool) in
                let first = state.firstRead == nil
                if first { state.firstRead = lastRead } else if state.firstRead != lastRead { state.readAgain = true }
                return (state.resumed, first)
            }
            if first {
                let (state, reader) = (state, reader)
                Thread {
                    Thread.sleep(forTimeInterval: 0.03)
                    state.withLock { $0.resumed = true }
                    for _ in 0..<1_000 where !state.withLock({ $0.readAgain }) {
                        reader.slotsMayHaveMoved()
                        Thread.sleep(forTimeInterval: 0.01)
                    }
                }.start()
            }
            // Given even once passed, as `GapAfterEachRead`'s.
            return lastRead + (resumed ? near : far)
        }
    }

    /// Holds for `gap` after the first read only, then reads on arrival: a stream that went quiet after
    /// one held read (as the app's pacing answers nil once the slot after the last read has passed).
    private final class HoldsAfterTheFirstReadOnly: WebSocketReadPacing {
        let gap: Duration
        private let firstRead = Locked<ContinuousClock.Instant?>(nil)

        init(gap: Duration) {
            self.gap = gap
        }

        func readSlot(lastRead: ContinuousClock.Instant?, lastSlot: ContinuousClock.Instant?, now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            guard let lastRead else { return nil }
            let first = firstRead.withLock { first in
                if first == nil { first = lastRead }
                return first
            }
            return lastRead == first ? lastRead + gap : nil
        }
    }

    /// Serves one scripted chunk per read, with "nothing more yet" between chunks (as a socket between
    /// a server's writes), and notes when each chunk was read.
    private final class ChunkedTransport: WebSocketTransport, Sendable {
        private struct State {
            var script: [[UInt8]?]
            var readTimes: [ContinuousClock.Instant] = []
            var readThreads: [String] = []
        }
        private let state: Locked<State>

        init(chunks: [[UInt8]]) {
            state = Locked(State(script: chunks.flatMap { [$0, nil] }))
        }

        var descriptor: Int32 { -1 }
        /// The loop never sleeps on the -1 descriptor unless it holds; the script's end closes.
        var hasBufferedInput: Bool { true }
        var readTimes: [ContinuousClock.Instant] { state.withLock { $0.readTimes } }
        /// The kernel's name of the thread that made each read that found a chunk.
        var readThreads: [String] { state.withLock { $0.readThreads } }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress {
            state.withLock { state in
                guard !state.script.isEmpty else { return .closed }
                guard let chunk = state.script.removeFirst() else { return .wouldBlock(.readable) }
                buffer.copyBytes(from: chunk)
                state.readTimes.append(.now)
                state.readThreads.append(WebSocketReadPacingTests.threadName())
                return .transferred(chunk.count)
            }
        }

        func write(_ bytes: UnsafeRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress {
            .transferred(bytes.count)
        }

        func shutdown() {}
    }

    static func threadName() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
    }

    private func serve(
        _ chunks: [[UInt8]], pacing: (any WebSocketReadPacing)?, reader: WebSocketSlotReader? = nil
    ) async throws -> (texts: [String], readTimes: [ContinuousClock.Instant], readThreads: [String]) {
        let channel = WebSocketIOChannel(wakePipe: try WebSocketWakePipe())
        let (messages, continuation) = WebSocketMessages.makeStream()
        let configuration = LiveWebSocketConnection.Configuration(
            handshake: try WebSocketHandshake(url: URL(string: "ws://127.0.0.1:9/stream")!, keyBytes: Array("the sample nonce".utf8)),
            options: LiveWebSocketConnector.Options(pingAfterIdle: nil, readPacing: pacing, slotReader: reader),
            secretNames: [],
            secretValues: [],
            maskingKeySource: { WebSocketMaskingKey(0x0102_0304) }
        )
        let transport = ChunkedTransport(chunks: chunks)
        let loop = WebSocketIOLoop(configuration: configuration, channel: channel, messages: continuation)
        // On a thread of its own, as in the app: with a slot reader, the reads are made elsewhere.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                KernelThreadName.setForCurrentThread("cb test ws")
                loop.serve(over: transport, firstFrameBytes: [])
                done.resume()
            }.start()
        }
        var texts: [String] = []
        do {
            for try await message in messages {
                if case .text(let text) = message { texts.append(text) }
            }
        } catch {}
        return (texts, transport.readTimes, transport.readThreads)
    }

    private static func frame(_ text: String) -> [UInt8] {
        WebSocketFrameCodec.encode(.text(text), maskingKey: nil)
    }

    @Test func heldReadsComeAtTheSlotAndLoseNothing() async throws {
        let gap = Duration.milliseconds(40)
        let (texts, readTimes, _) = try await serve(["one", "two", "three"].map(Self.frame), pacing: GapAfterEachRead(gap: gap))
        #expect(texts == ["one", "two", "three"])
        #expect(readTimes.count == 3)
        for (earlier, later) in zip(readTimes, readTimes.dropFirst()) {
            #expect(earlier.duration(to: later) >= gap, "a read came before its slot")
        }
    }

    @Test func withoutPacingEveryChunkIsReadAsItComes() async throws {
        let (texts, readTimes, _) = try await serve(["one", "two", "three"].map(Self.frame), pacing: nil)
        #expect(texts == ["one", "two", "three"])
        #expect(readTimes.count == 3)
    }

    @Test func aSlotThatMovedLaterWhileTheReaderSleptIsWaitedFor() async throws {
        let (texts, readTimes, _) = try await serve(["one", "two", "three"].map(Self.frame), pacing: SlotMovesLater(first: .milliseconds(20), moved: .milliseconds(50)))
        #expect(texts == ["one", "two", "three"])
        #expect(readTimes.count == 3)
        for (earlier, later) in zip(readTimes, readTimes.dropFirst()) {
            #expect(earlier.duration(to: later) >= .milliseconds(50), "read at the slot foreseen, not the one it moved to")
        }
    }

    @Test func messagesReadTogetherWithThePeersCloseArriveBeforeTheEnd() async throws {
        let chunk = Self.frame("one") + Self.frame("two")
            + WebSocketFrameCodec.encode(.close(WebSocketCloseFrame(code: WebSocketCloseFrame.normalClosure)), maskingKey: nil)
        let (texts, _, _) = try await serve([chunk], pacing: nil)
        #expect(texts == ["one", "two"], "a read's messages go to the session before the end they came with")
    }

    @Test func messagesReadTogetherWithABrokenFrameArriveBeforeTheFailure() async throws {
        // A server's frame must not be masked (RFC 6455 §5.1): the connection fails on it.
        let chunk = Self.frame("one") + WebSocketFrameCodec.encode(.text("masked"), maskingKey: WebSocketMaskingKey(0x0A0B_0C0D))
        let (texts, _, _) = try await serve([chunk], pacing: nil)
        #expect(texts == ["one"])
    }

    // MARK: - With a slot reader

    /// The first read is the connection's own (nothing was held yet); every held one after it is the
    /// slot reader's, at its slot, and nothing is lost or reordered.
    @Test func aSlotReaderMakesTheHeldReadsAtTheirSlotsAndLosesNothing() async throws {
        let gap = Duration.milliseconds(40)
        let reader = try WebSocketSlotReader(name: "cb test slots")
        let (texts, readTimes, readThreads) = try await serve(["one", "two", "three"].map(Self.frame), pacing: GapAfterEachRead(gap: gap), reader: reader)
        #expect(texts == ["one", "two", "three"])
        #expect(readThreads == ["cb test ws", "cb test slots", "cb test slots"])
        for (earlier, later) in zip(readTimes, readTimes.dropFirst()) {
            #expect(earlier.duration(to: later) >= gap, "a read came before its slot")
        }
    }

    @Test func aSlotThatMovedLaterIsWaitedForByTheSlotReader() async throws {
        let reader = try WebSocketSlotReader(name: "cb test moved")
        let (texts, readTimes, readThreads) = try await serve(
            ["one", "two", "three"].map(Self.frame), pacing: SlotMovesLater(first: .milliseconds(20), moved: .milliseconds(50)), reader: reader)
        #expect(texts == ["one", "two", "three"])
        #expect(readThreads.dropFirst().allSatisfy { $0 == "cb test moved" })
        for (earlier, later) in zip(readTimes, readTimes.dropFirst()) {
            #expect(earlier.duration(to: later) >= .milliseconds(50), "read at the slot foreseen, not the one it moved to")
        }
    }

    /// The slot reader's read leaves no further slot (the stream went quiet): it hands the connection
    /// back, and the next read is the connection's own, on arrival.
    @Test func aReadThatLeavesNoFurtherSlotHandsTheConnectionBack() async throws {
        let reader = try WebSocketSlotReader(name: "cb test quiet")
        let (texts, _, readThreads) = try await serve(
            ["one", "two", "three"].map(Self.frame), pacing: HoldsAfterTheFirstReadOnly(gap: .milliseconds(20)), reader: reader)
        #expect(texts == ["one", "two", "three"])
        #expect(readThreads == ["cb test ws", "cb test quiet", "cb test ws"])
    }

    static let farSlot: Duration = .seconds(30)

    /// After a pause the frames fall elsewhere: a read booked for a slot 30 seconds away is made at the
    /// earlier slot once the reader hears the slots may have moved, not slept through.
    @Test func aSlotThatMovedEarlierIsReadThereOnceTheReaderHears() async throws {
        let reader = try WebSocketSlotReader(name: "cb test earlier")
        let (texts, readTimes, readThreads) = try await serve(
            ["one", "two", "three"].map(Self.frame),
            pacing: SlotMovesEarlier(far: Self.farSlot, near: .milliseconds(20), reader: reader), reader: reader)
        #expect(texts == ["one", "two", "three"])
        #expect(readThreads.dropFirst().allSatisfy { $0 == "cb test earlier" })
        let first = try #require(readTimes.first), last = try #require(readTimes.last)
        #expect(readTimes.count == 3)
        // The far slot is far enough that only sleeping through it, not a loaded machine, reaches it.
        #expect(first.duration(to: last) < Self.farSlot, "a read waited for the far slot it was moved from")
    }

    /// Several connections on one reader: each one's messages in order, every held read the reader's,
    /// and the end (the script runs out: a hang-up) wakes each connection's thread to finish.
    @Test func oneSlotReaderServesSeveralConnectionsAndEachEnds() async throws {
        let reader = try WebSocketSlotReader(name: "cb test shared")
        let results = try await withThrowingTaskGroup(of: (Int, [String], [String]).self) { group in
            for connection in 0..<4 {
                group.addTask {
                    let texts = (0..<5).map { "c\(connection) m\($0)" }
                    let (received, _, threads) = try await serve(texts.map(Self.frame), pacing: GapAfterEachRead(gap: .milliseconds(15)), reader: reader)
                    return (connection, received, threads)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = ($1.1, $1.2) }
        }
        for connection in 0..<4 {
            #expect(results[connection]?.0 == (0..<5).map { "c\(connection) m\($0)" })
            #expect(results[connection]?.1.dropFirst().allSatisfy { $0 == "cb test shared" } == true)
        }
    }
}
