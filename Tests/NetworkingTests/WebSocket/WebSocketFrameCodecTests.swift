import Domain
import Foundation
@testable import Networking
import Testing

@Suite struct WebSocketFrameCodecTests {
    let key = WebSocketMaskingKey(0x37, 0xFA, 0x21, 0x3D)

    func decodeAll(_ bytes: [UInt8], limit: Int = 16 << 20) throws(WebSocketProtocolError) -> [WebSocketFrame] {
        var codec = WebSocketFrameCodec(maxFrameSize: limit, maskingKeySource: { WebSocketMaskingKey(0) })
        codec.append(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try codec.nextFrame() { frames.append(frame) }
        return frames
    }

    /// A server frame for tests: never masked.
    func serverFrame(fin: Bool = true, opcode: UInt8, payload: [UInt8], rsv: UInt8 = 0) -> [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | rsv | opcode]
        switch payload.count {
        case ..<126: bytes.append(UInt8(payload.count))
        case ..<65_536: bytes += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [127] + (0..<8).map { UInt8((UInt64(payload.count) >> UInt64(56 - $0 * 8)) & 0xFF) }
        }
        return bytes + payload
    }

    @Test func encodesTheRFCExamples() throws {
        // RFC 6455 §5.7: a masked "Hello".
        #expect(WebSocketFrameCodec.encode(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)), maskingKey: key)
            == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
        // Unmasked "Hello" from a server decodes; fragmented "Hel" + "lo" too.
        #expect(try decodeAll([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]) == [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))])
        #expect(try decodeAll([0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]) == [
            WebSocketFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)),
            WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)),
        ])
    }

    @Test(arguments: [WebSocketOpcode.continuation, .text, .binary, .close, .ping, .pong])
    func everyOpcodeRoundTrips(_ opcode: WebSocketOpcode) throws {
        let payload: [UInt8] = opcode == .close ? [0x03, 0xE8] : [1, 2, 3]
        #expect(try decodeAll(serverFrame(opcode: opcode.rawValue, payload: payload)) == [WebSocketFrame(opcode: opcode, payload: payload)])
        let encoded = WebSocketFrameCodec.encode(WebSocketFrame(opcode: opcode, payload: payload), maskingKey: key)
        #expect(encoded[0] == 0x80 | opcode.rawValue)
        #expect(encoded[1] & 0x80 != 0, "client frames are masked")
    }

    @Test(arguments: [0, 125, 126, 65_535, 65_536, 70_000])
    func lengthEncodingsAtTheBoundaries(_ count: Int) throws {
        let payload = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let encoded = WebSocketFrameCodec.encode(WebSocketFrame(opcode: .binary, payload: payload), maskingKey: key)
        let expectedHeader = count < 126 ? 2 : count < 65_536 ? 4 : 10
        #expect(encoded.count == expectedHeader + 4 + count)
        #expect(encoded[1] & 0x7F == (count < 126 ? UInt8(count) : count < 65_536 ? 126 : 127))
        // Unmasking what we encoded gives the payload back.
        let maskStart = expectedHeader
        let mask = Array(encoded[maskStart..<(maskStart + 4)])
        let unmasked = encoded[(maskStart + 4)...].enumerated().map { $0.element ^ mask[$0.offset & 3] }
        #expect(unmasked == payload)
        #expect(try decodeAll(serverFrame(opcode: 2, payload: payload)).first?.payload == payload)
    }

    @Test func decodesByteByByte() throws {
        let stream = serverFrame(opcode: 1, payload: Array("first".utf8)) + serverFrame(opcode: 2, payload: Array(repeating: 7, count: 300))
            + serverFrame(opcode: 9, payload: [])
        var codec = WebSocketFrameCodec(maskingKeySource: { WebSocketMaskingKey(0) })
        var frames: [WebSocketFrame] = []
        for byte in stream {
            codec.append([byte])
            while let frame = try codec.nextFrame() { frames.append(frame) }
        }
        #expect(frames.map(\.opcode) == [.text, .binary, .ping])
        #expect(frames[1].payload.count == 300)
        #expect(codec.bufferedByteCount == 0)
    }

    @Test func rejectsWhatAClientMustReject() throws {
        func violation(_ bytes: [UInt8], limit: Int = 16 << 20) -> String? {
            do {
                _ = try decodeAll(bytes, limit: limit)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(violation([0x81, 0x85, 1, 2, 3, 4, 0, 0, 0, 0, 0]) == "server sent a masked frame (close 1002)")
        #expect(violation(serverFrame(opcode: 1, payload: [65], rsv: 0x40)) == "reserved bits set (RSV 100) without a negotiated extension (close 1002)")
        #expect(violation(serverFrame(opcode: 3, payload: [])) == "unknown opcode 0x3 (close 1002)")
        #expect(violation(serverFrame(fin: false, opcode: 9, payload: [])) == "fragmented ping frame (close 1002)")
        #expect(violation(serverFrame(opcode: 8, payload: Array(repeating: 0, count: 126))) == "close frame longer than 125 bytes (close 1002)")
        #expect(violation([0x82, 127, 0x80, 0, 0, 0, 0, 0, 0, 0]) == "frame length has its most significant bit set (close 1002)")
        #expect(violation(serverFrame(opcode: 2, payload: Array(repeating: 0, count: 2000)), limit: 1000) == "frame of 2000 bytes exceeds the 1000-byte limit (close 1009)")
    }

    @Test func aBrokenStreamStaysBroken() throws {
        var codec = WebSocketFrameCodec(maskingKeySource: { WebSocketMaskingKey(0) })
        codec.append(serverFrame(opcode: 3, payload: []) + serverFrame(opcode: 1, payload: [65]))
        #expect(throws: WebSocketProtocolError.self) { try codec.nextFrame() }
        #expect(throws: WebSocketProtocolError.self, "nothing after a violation can be trusted") { try codec.nextFrame() }
    }

    @Test func aServerRoleCodecReadsWhatTheClientWrites() throws {
        let client = WebSocketFrameCodec(role: .client, maskingKeySource: { WebSocketMaskingKey(0xDEAD_BEEF) })
        var server = WebSocketFrameCodec(role: .server)
        let frames = [WebSocketFrame.text("naïve"), .binary(Array(0..<200)), .close(WebSocketCloseFrame(code: 1000, reason: "bye"))]
        for frame in frames { server.append(client.encode(frame)) }
        var decoded: [WebSocketFrame] = []
        while let frame = try server.nextFrame() { decoded.append(frame) }
        #expect(decoded == frames)
        // And the server rejects an unmasked frame, as the client rejects a masked one.
        var strict = WebSocketFrameCodec(role: .server)
        strict.append(serverFrame(opcode: 1, payload: [65]))
        #expect(throws: WebSocketProtocolError.malformed("client sent an unmasked frame")) { try strict.nextFrame() }
    }

    /// Random mutations of valid frames (a fixed seed, so every run checks the same inputs): the decoder
    /// never crashes or loops; it returns frames, waits for bytes, or reports a protocol violation.
    @Test func survivesSeededMutations() {
        var random = SplitMix64(seed: 6455)
        let seeds = [
            serverFrame(opcode: 1, payload: Array("hello".utf8)), serverFrame(opcode: 2, payload: Array(repeating: 1, count: 200)),
            serverFrame(opcode: 8, payload: [3, 232] + Array("bye".utf8)), serverFrame(fin: false, opcode: 1, payload: [0xCE]),
            serverFrame(opcode: 0, payload: [0xBB]),
        ]
        var outcomes = (frames: 0, violations: 0, incomplete: 0)
        for _ in 0..<5_000 {
            var bytes = seeds[Int(random.next() % UInt64(seeds.count))] + seeds[Int(random.next() % UInt64(seeds.count))]
            for _ in 0...(random.next() % 4) {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: position)
                default: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
                }
            }
            var codec = WebSocketFrameCodec(maxFrameSize: 1 << 16, maskingKeySource: { WebSocketMaskingKey(0) })
            var assembler = WebSocketMessageAssembler(maxMessageSize: 1 << 16)
            codec.append(bytes)
            do {
                var steps = 0
                while let frame = try codec.nextFrame() {
                    outcomes.frames += 1
                    _ = try assembler.push(frame)
                    steps += 1
                    #expect(steps <= bytes.count, "the decoder must consume bytes on every frame")
                }
                outcomes.incomplete += 1
            } catch {
                outcomes.violations += 1
            }
        }
        #expect(outcomes.frames > 0 && outcomes.violations > 0 && outcomes.incomplete > 0, "\(outcomes)")
    }
}

