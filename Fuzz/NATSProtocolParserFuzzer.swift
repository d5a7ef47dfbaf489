/// Fuzzes the NATS protocol parser the way the connection drives it: bytes arrive in chunks of any size,
/// frames come out; and the encoder, which must write every frame back to bytes that parse to it.
///
/// Input layout (2 bytes of settings, then the byte stream):
/// - byte 0: bit 0 whose bytes these are (0 the server's, 1 a client's); bits 1-2 `maxPayload`, one of
///   64, 1 KiB, 64 KiB or the 1 MiB default;
/// - byte 1: the largest chunk handed to `append` (0: the whole stream at once); chunk sizes vary below it;
/// - the rest: what the peer sent.
///
/// Invariants: nothing traps; `bufferedByteCount` grows by exactly what is appended and never goes
/// negative; a protocol error repeats on every later call; the stream parsed whole and parsed in chunks
/// gives the same frames and the same error (limits do not depend on the split); every frame re-encodes
/// to bytes that parse back to it; headers that were read can be sent again (`problem` is nil); an error
/// and a malformed message's reason hold no control characters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard input.count >= 2 else { return 0 }
    let peer: NATSProtocolParser.Peer = input[0] & 1 == 0 ? .server : .client
    let maxPayload = [64, 1024, 1 << 16, NATSProtocolParser.defaultMaxPayload][Int(input[0] >> 1) & 3]
    let stream = UnsafeBufferPointer(rebasing: input[2...])

    let whole = NATSParserFuzzRun(peer: peer, maxPayload: maxPayload, maxChunk: 0)
    whole.feed(stream)
    let chunked = NATSParserFuzzRun(peer: peer, maxPayload: maxPayload, maxChunk: Int(input[1]))
    chunked.feed(stream)
    fuzzInvariant(whole.frames == chunked.frames, "whole and chunked parses differ: \(whole.frames.count) vs \(chunked.frames.count) frames")
    fuzzInvariant(whole.failure == chunked.failure, "whole and chunked errors differ: \(String(describing: whole.failure)) vs \(String(describing: chunked.failure))")
    for frame in whole.frames { checkRoundTrip(frame, peer: peer) }
    return 0
}

final class NATSParserFuzzRun {
    var parser: NATSProtocolParser
    let maxChunk: Int
    var frames: [NATSFrame] = []
    var failure: NATSProtocolError?
    /// Chunk sizes: a small xorshift seeded by the settings, so an input always splits the same way.
    var chunkState: UInt32

    init(peer: NATSProtocolParser.Peer, maxPayload: Int, maxChunk: Int) {
        parser = NATSProtocolParser(peer: peer, maxPayload: maxPayload)
        self.maxChunk = maxChunk
        chunkState = UInt32(maxChunk) &* 0x9E37_79B9 | 1
    }

    func feed(_ stream: UnsafeBufferPointer<UInt8>) {
        var offset = 0
        while offset < stream.count, failure == nil {
            let length = min(stream.count - offset, nextChunkLength())
            let before = parser.bufferedByteCount
            parser.append(UnsafeBufferPointer(rebasing: stream[offset..<(offset + length)]))
            fuzzInvariant(parser.bufferedByteCount == before + length, "append(\(length)) moved the buffer from \(before) to \(parser.bufferedByteCount)")
            offset += length
            drain()
        }
    }

    private func nextChunkLength() -> Int {
        guard maxChunk > 0 else { return .max }
        chunkState ^= chunkState << 13
        chunkState ^= chunkState >> 17
        chunkState ^= chunkState << 5
        return 1 + Int(chunkState % UInt32(maxChunk))
    }

    private func drain() {
        while true {
            let before = parser.bufferedByteCount
            do {
                guard let frame = try parser.nextFrame() else {
                    fuzzInvariant(parser.bufferedByteCount == before, "an incomplete frame consumed bytes")
                    return
                }
                fuzzInvariant(parser.bufferedByteCount < before && parser.bufferedByteCount >= 0, "a frame consumed \(before - parser.bufferedByteCount) bytes")
                frames.append(frame)
            } catch {
                fuzzInvariant(parser.bufferedByteCount == before, "a failing frame consumed bytes")
                fuzzInvariant(isShowable(error.detail), "error with control characters: \(error.detail.debugDescription)")
                do {
                    _ = try parser.nextFrame()
                    fuzzInvariant(false, "the parser forgot its error \(error)")
                } catch let again {
                    fuzzInvariant(again == error, "the parser's error changed from \(error) to \(again)")
                }
                failure = error
                return
            }
        }
    }
}

/// Re-encoded, a frame parses back to itself. The parser for that has room to spare: bytes that are not
/// UTF-8 come back as U+FFFD, three bytes each, so a re-encoded line may be longer than the one read.
func checkRoundTrip(_ frame: NATSFrame, peer: NATSProtocolParser.Peer) {
    switch frame {
    case .message(let message):
        if let headers = message.headers { fuzzInvariant(headers.problem == nil, "headers read but not sendable: \(headers.problem ?? "")") }
    case .publish(_, _, let headers?, _):
        fuzzInvariant(headers.problem == nil, "headers read but not sendable: \(headers.problem ?? "")")
    case .malformedMessage(let message):
        fuzzInvariant(!message.reason.isEmpty && isShowable(message.reason), "malformed message reason \(message.reason.debugDescription)")
    default:
        break
    }
    var parser = NATSProtocolParser(peer: peer, maxPayload: 1 << 30, maxControlLineSize: 1 << 20, maxInfoLineSize: 1 << 22)
    parser.append(NATSProtocolEncoder.encode(frame))
    do {
        let again = try parser.nextFrame()
        fuzzInvariant(again == frame, "\(frame.operationName) re-encoded parses to \(String(describing: again))")
        fuzzInvariant(parser.bufferedByteCount == 0, "re-encoded \(frame.operationName) left \(parser.bufferedByteCount) bytes")
    } catch {
        fuzzInvariant(false, "re-encoded \(frame.operationName) does not parse: \(error)")
    }
}

func isShowable(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
}
