/// Fuzzes the RFC 6455 frame codec and the message assembler together, the way the I/O loop drives them:
/// bytes arrive in chunks of any size, frames come out, frames become messages.
///
/// Input layout (6 bytes of settings, then the byte stream):
/// - byte 0: bit 0 our role (0 client, 1 server); bits 1-2 the frame size limit and bits 3-4 the message
///   size limit, each one of 125, 4 KiB, 64 KiB or the 16 MiB default;
/// - byte 1: the largest chunk handed to `append` (0: the whole stream at once); chunk sizes vary below it;
/// - bytes 2-5: the masking key used to re-encode frames in the masked direction;
/// - the rest: what the peer sent.
///
/// Invariants: nothing traps; `bufferedByteCount` grows by exactly what is appended, never goes negative,
/// and shrinks by one frame's header (2-14 bytes) plus payload per frame; a protocol error repeats on
/// every later call; every frame has a known opcode, no reserved bits, respects the frame limit, and
/// re-encodes, unmasked (server role) and masked, to bytes that decode to the same frame; control frames
/// are final and at most 125 bytes; the UTF-8 validator agrees with the standard library; messages respect
/// the message limit and hold exactly the fragments' bytes; a close payload survives parse and serialize.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard input.count >= 6 else { return 0 }
    var run = FrameCodecFuzzRun(settings: Array(input[0..<6]))
    run.feed(UnsafeBufferPointer(rebasing: input[6...]))
    return 0
}

struct FrameCodecFuzzRun {
    static let limits = [125, 4096, 1 << 16, WebSocketFrameCodec.defaultMaxFrameSize]

    var codec: WebSocketFrameCodec
    var assembler: WebSocketMessageAssembler
    let maxChunk: Int
    let maskingKey: WebSocketMaskingKey
    /// Chunk sizes: a small xorshift seeded by the settings, so an input always splits the same way.
    var chunkState: UInt32
    /// The fragments of the message in progress, kept independently of the assembler.
    var messageOpcode: WebSocketOpcode?
    var messageBytes: [UInt8] = []

    init(settings: [UInt8]) {
        let role: WebSocketFrameCodec.Role = settings[0] & 1 == 0 ? .client : .server
        codec = WebSocketFrameCodec(
            role: role, maxFrameSize: Self.limits[Int(settings[0] >> 1) & 3], maskingKeySource: { WebSocketMaskingKey(0x0102_0304) })
        assembler = WebSocketMessageAssembler(maxMessageSize: Self.limits[Int(settings[0] >> 3) & 3])
        maxChunk = Int(settings[1])
        maskingKey = WebSocketMaskingKey(settings[2], settings[3], settings[4], settings[5])
        chunkState = UInt32(settings[1]) &* 0x9E37_79B9 | 1
    }

    mutating func feed(_ stream: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < stream.count {
            let length = min(stream.count - offset, nextChunkLength())
            let before = codec.bufferedByteCount
            codec.append(UnsafeBufferPointer(rebasing: stream[offset..<(offset + length)]))
            fuzzInvariant(codec.bufferedByteCount == before + length, "append(\(length)) moved the buffer from \(before) to \(codec.bufferedByteCount)")
            offset += length
            guard drain() else { return }
        }
    }

    private mutating func nextChunkLength() -> Int {
        guard maxChunk > 0 else { return .max }
        chunkState ^= chunkState << 13
        chunkState ^= chunkState >> 17
        chunkState ^= chunkState << 5
        return 1 + Int(chunkState % UInt32(maxChunk))
    }

    /// Takes every complete frame; false once the stream is broken.
    private mutating func drain() -> Bool {
        while true {
            let before = codec.bufferedByteCount
            let frame: WebSocketFrame?
            do {
                frame = try codec.nextFrame()
            } catch {
                fuzzInvariant(codec.bufferedByteCount == before, "a failing frame consumed bytes")
                do {
                    _ = try codec.nextFrame()
                    fuzzInvariant(false, "the codec forgot its error \(error)")
                } catch let again {
                    fuzzInvariant(again == error, "the codec's error changed from \(error) to \(again)")
                }
                return false
            }
            let after = codec.bufferedByteCount
            fuzzInvariant(after >= 0, "negative buffered byte count \(after)")
            guard let frame else {
                fuzzInvariant(after == before, "an incomplete frame consumed \(before - after) bytes")
                return true
            }
            let consumed = before - after
            fuzzInvariant(
                (2 + frame.payload.count)...(14 + frame.payload.count) ~= consumed,
                "a frame with \(frame.payload.count) payload bytes consumed \(consumed) bytes")
            check(frame)
            guard assemble(frame) else { return false }
        }
    }

    private func check(_ frame: WebSocketFrame) {
        fuzzInvariant(frame.reservedBits == 0, "frame with reserved bits \(frame.reservedBits)")
        fuzzInvariant(frame.payload.count <= codec.maxFrameSize, "frame of \(frame.payload.count) bytes over the \(codec.maxFrameSize)-byte limit")
        if frame.opcode.isControl {
            fuzzInvariant(frame.fin && frame.payload.count <= 125, "control frame fin=\(frame.fin), \(frame.payload.count) bytes")
        }
        if frame.opcode == .text {
            let valid = String(validating: frame.payload, as: UTF8.self) != nil
            fuzzInvariant(WebSocketUTF8Validator.isValid(frame.payload) == valid, "UTF-8 validator says \(!valid) for \(frame.payload)")
        }

        // What a server sends (unmasked), decoded by a client; what a client sends (masked), by a server.
        let unmasked = WebSocketFrameCodec(role: .server).encode(frame)
        let headerSize = frame.payload.count <= 125 ? 2 : frame.payload.count <= 0xFFFF ? 4 : 10
        fuzzInvariant(unmasked.count == headerSize + frame.payload.count, "encoding is not the shortest form")
        for (bytes, role) in [(unmasked, WebSocketFrameCodec.Role.client), (WebSocketFrameCodec.encode(frame, maskingKey: maskingKey), .server)] {
            var decoder = WebSocketFrameCodec(role: role, maxFrameSize: codec.maxFrameSize)
            decoder.append(bytes)
            do {
                let again = try decoder.nextFrame()
                fuzzInvariant(again == frame, "re-encoded frame decodes to \(String(describing: again)), not \(frame)")
                fuzzInvariant(decoder.bufferedByteCount == 0, "re-encoded frame left \(decoder.bufferedByteCount) bytes")
            } catch {
                fuzzInvariant(false, "re-encoded frame does not decode for a \(role): \(error)")
            }
        }
    }

    /// Pushes `frame` through the assembler and checks the event against the fragments seen; false once
    /// the assembler rejected something.
    private mutating func assemble(_ frame: WebSocketFrame) -> Bool {
        let wasAssembling = assembler.isAssembling
        let event: WebSocketMessageAssembler.Event?
        do {
            event = try assembler.push(frame)
        } catch {
            checkRejection(error, of: frame, wasAssembling: wasAssembling)
            return false
        }
        switch frame.opcode {
        case .text, .binary:
            messageOpcode = frame.opcode
            messageBytes = frame.payload
        case .continuation:
            messageBytes += frame.payload
        case .ping, .pong, .close:
            break
        }
        switch event {
        case nil:
            fuzzInvariant(!frame.opcode.isControl && !frame.fin, "no event for a complete \(frame.opcode) frame")
            fuzzInvariant(assembler.isAssembling, "a fragment left the assembler idle")
            fuzzInvariant(messageBytes.count <= assembler.maxMessageSize, "partial message of \(messageBytes.count) bytes over the limit")
        case .message(let message):
            fuzzInvariant(frame.fin && !assembler.isAssembling, "message from a non-final frame")
            switch message {
            case .text(let text):
                fuzzInvariant(messageOpcode == .text && Array(text.utf8) == messageBytes, "text message differs from its fragments")
            case .binary(let bytes):
                fuzzInvariant(messageOpcode == .binary && bytes == messageBytes, "binary message differs from its fragments")
            }
            fuzzInvariant(messageBytes.count <= assembler.maxMessageSize, "message of \(messageBytes.count) bytes over the \(assembler.maxMessageSize)-byte limit")
            messageOpcode = nil
            messageBytes = []
        case .ping(let payload):
            fuzzInvariant(frame.opcode == .ping && payload == frame.payload, "ping payload changed")
        case .pong(let payload):
            fuzzInvariant(frame.opcode == .pong && payload == frame.payload, "pong payload changed")
        case .close(let close):
            fuzzInvariant(frame.opcode == .close && close.payload == frame.payload, "close payload \(frame.payload) does not survive parse and serialize")
            if let code = close.code {
                fuzzInvariant(WebSocketCloseFrame.isSendable(code: code), "accepted close code \(code)")
            }
        }
        if frame.opcode.isControl {
            fuzzInvariant(assembler.isAssembling == wasAssembling, "a control frame changed the message in progress")
        }
        return true
    }

    private func checkRejection(_ error: WebSocketProtocolError, of frame: WebSocketFrame, wasAssembling: Bool) {
        switch error.closeCode {
        case WebSocketProtocolError.invalidPayloadCode:
            let bytes = frame.opcode == .close ? Array(frame.payload.dropFirst(2)) : frame.opcode == .continuation ? messageBytes + frame.payload : frame.payload
            fuzzInvariant(String(validating: bytes, as: UTF8.self) == nil, "rejected valid UTF-8 \(bytes): \(error)")
        case WebSocketProtocolError.tooBigCode:
            let total = (frame.opcode == .continuation ? messageBytes.count : 0) + frame.payload.count
            fuzzInvariant(total > assembler.maxMessageSize, "rejected a \(total)-byte message under the limit: \(error)")
        default:
            fuzzInvariant(error.closeCode == WebSocketProtocolError.protocolErrorCode, "unexpected close code in \(error)")
            switch frame.opcode {
            case .text, .binary: fuzzInvariant(wasAssembling, "rejected a new message with none in progress: \(error)")
            case .continuation: fuzzInvariant(!wasAssembling, "rejected a continuation of a message in progress: \(error)")
            case .close: break
            case .ping, .pong: fuzzInvariant(false, "rejected a \(frame.opcode): \(error)")
            }
        }
    }
}
