@testable import Networking
import Locking

/// A transport whose peer is a script, for driving `WebSocketIOLoop` through a race in a fixed order
/// with no socket and no timing: reads return the scripted chunks one per call and then `.closed`;
/// writes succeed whole (and are recorded) or all fail with `writeFailure`.
///
/// It reports buffered input, so the loop never sleeps in poll() on it (the descriptor is -1, which
/// poll() ignores) and a script that runs out ends the connection instead of hanging the test.
final class ScriptedWebSocketTransport: WebSocketTransport, Sendable {
    private struct State {
        var reads: [[UInt8]]
        var written: [UInt8] = []
        var writeAttempts = 0
    }

    private let state: Locked<State>
    private let writeFailure: WebSocketError?

    init(reads: [[UInt8]] = [], writeFailure: WebSocketError? = nil) {
        state = Locked(State(reads: reads))
        self.writeFailure = writeFailure
    }

    var descriptor: Int32 { -1 }
    var hasBufferedInput: Bool { true }

    /// Everything the loop managed to write, in order.
    var written: [UInt8] { state.withLock { $0.written } }
    var writeAttempts: Int { state.withLock { $0.writeAttempts } }

    /// The frames the loop wrote, decoded as the server would (unmasked).
    func writtenFrames() throws -> [WebSocketFrame] {
        var codec = WebSocketFrameCodec(role: .server)
        codec.append(written)
        var frames: [WebSocketFrame] = []
        while let frame = try codec.nextFrame() { frames.append(frame) }
        return frames
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress {
        state.withLock { state in
            guard !state.reads.isEmpty else { return .closed }
            let chunk = state.reads.removeFirst()
            precondition(chunk.count <= buffer.count, "scripted chunk larger than the loop's read buffer")
            buffer.copyBytes(from: chunk)
            return .transferred(chunk.count)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(WebSocketError) -> WebSocketTransportProgress {
        let accepted = state.withLock { state -> Bool in
            state.writeAttempts += 1
            guard writeFailure == nil else { return false }
            state.written += bytes
            return true
        }
        if !accepted, let writeFailure { throw writeFailure }
        return .transferred(bytes.count)
    }

    func shutdown() {}
}
