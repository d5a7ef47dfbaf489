import Foundation
@testable import Networking
import Testing

/// `WebSocketIOLoop` over a scripted transport: races between the loop's reader, its writer and other
/// threads' sends, replayed in one fixed order (see `ScriptedWebSocketTransport`).
@Suite struct WebSocketIOLoopTests {
    private struct Run {
        let channel: WebSocketIOChannel
        let loop: WebSocketIOLoop
        let messages: WebSocketMessages
    }

    private func makeRun() throws -> Run {
        let channel = WebSocketIOChannel(wakePipe: try WebSocketWakePipe())
        let (messages, continuation) = WebSocketMessages.makeStream()
        let configuration = LiveWebSocketConnection.Configuration(
            handshake: try WebSocketHandshake(url: URL(string: "ws://127.0.0.1:9/stream")!, keyBytes: Array("the sample nonce".utf8)),
            options: LiveWebSocketConnector.Options(pingAfterIdle: nil),
            secretNames: [],
            secretValues: [],
            maskingKeySource: { WebSocketMaskingKey(0x0102_0304) }
        )
        return Run(channel: channel, loop: WebSocketIOLoop(configuration: configuration, channel: channel, messages: continuation), messages: messages)
    }

    /// What a server puts on the wire: unmasked.
    private static func serverBytes(_ frame: WebSocketFrame) -> [UInt8] {
        WebSocketFrameCodec.encode(frame, maskingKey: nil)
    }

    private static func clientBytes(_ frame: WebSocketFrame) -> [UInt8] {
        WebSocketFrameCodec.encode(frame, maskingKey: WebSocketMaskingKey(0x0A0B_0C0D))
    }

    private static func end(of messages: WebSocketMessages) async -> WebSocketMessageReader.End {
        do {
            for try await _ in messages {}
            return .finished
        } catch {
            return .failed(error as! WebSocketError)
        }
    }

    /// A message another thread queued just before the server's close frame was read: RFC 6455 §5.5.1
    /// forbids writing it after our echo of that close, and its sender must not hear it was sent.
    @Test func sendQueuedWhenTheServerClosesIsNotWrittenAfterOurCloseAndFails() async throws {
        let run = try makeRun()
        let transport = ScriptedWebSocketTransport()
        let serverClose = Self.serverBytes(.close(WebSocketCloseFrame(code: 4000, reason: "maintenance")))

        let sent = await withCheckedContinuation { completion in
            #expect(run.channel.enqueue(Self.clientBytes(.text("subscribe")), completion: completion))
            // The close frame comes with the upgrade's bytes, so it is read before the queued send is taken.
            run.loop.serve(over: transport, firstFrameBytes: serverClose)
        }

        #expect(try transport.writtenFrames() == [.close(WebSocketCloseFrame(code: 4000))], "only the echo, nothing after it")
        #expect(throws: WebSocketError.network("connection closing; message not sent")) { try sent.get() }
        #expect(await Self.end(of: run.messages) == .failed(.closed(code: 4000, reason: "maintenance")))
    }

    /// The race behind "auth failed shows up as connection lost": the broker closes with a code and
    /// resets; our pending write fails before the loop has read the close frame, which is already in
    /// the kernel's buffer. The close code must reach the consumer, not the write's EPIPE.
    @Test func closeFrameAlreadyReceivedOutranksTheWriteFailureItCaused() async throws {
        let run = try makeRun()
        let serverClose = Self.serverBytes(.close(WebSocketCloseFrame(code: 4003, reason: "auth failed")))
        let transport = ScriptedWebSocketTransport(reads: [serverClose], writeFailure: .network("connection lost"))

        let sent = await withCheckedContinuation { completion in
            #expect(run.channel.enqueue(Self.clientBytes(.text("subscribe")), completion: completion))
            run.loop.serve(over: transport, firstFrameBytes: [])
        }

        #expect(transport.writeAttempts >= 1, "the write was tried (and failed) first")
        #expect(throws: WebSocketError.self) { try sent.get() }
        #expect(await Self.end(of: run.messages) == .failed(.closed(code: 4003, reason: "auth failed")))
    }

    /// The same race with a protocol error instead of a close: the reader's finding wins as well.
    @Test func protocolErrorAlreadyReceivedOutranksTheWriteFailure() async throws {
        let run = try makeRun()
        let invalidText = Self.serverBytes(WebSocketFrame(opcode: .text, payload: [0xCE, 0xBA, 0xFF, 0xFE]))
        let transport = ScriptedWebSocketTransport(reads: [invalidText], writeFailure: .network("connection lost"))

        _ = await withCheckedContinuation { completion in
            #expect(run.channel.enqueue(Self.clientBytes(.text("subscribe")), completion: completion))
            run.loop.serve(over: transport, firstFrameBytes: [])
        }

        guard case .failed(.protocolViolation(let detail)) = await Self.end(of: run.messages) else {
            Issue.record("expected the protocol violation to be reported")
            return
        }
        #expect(detail.contains("UTF-8"))
    }

    /// Nothing more informative arrived: the write failure is what the consumer hears.
    @Test func writeFailureWithNothingReceivedIsReported() async throws {
        let run = try makeRun()
        let transport = ScriptedWebSocketTransport(writeFailure: .network("connection lost"))

        let sent = await withCheckedContinuation { completion in
            #expect(run.channel.enqueue(Self.clientBytes(.text("subscribe")), completion: completion))
            run.loop.serve(over: transport, firstFrameBytes: [])
        }

        #expect(throws: WebSocketError.self) { try sent.get() }
        #expect(await Self.end(of: run.messages) == .failed(.network("connection lost")))
    }
}
