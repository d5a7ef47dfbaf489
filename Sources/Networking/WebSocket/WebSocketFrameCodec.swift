/// Encodes client frames and decodes server frames incrementally (RFC 6455 §5). A pure value: bytes in,
/// frames out, no I/O, so it can be unit-tested byte for byte and fuzzed.
public struct WebSocketFrameCodec: Sendable {
    /// Largest payload accepted in one frame; a bigger one is a protocol error (the client closes with 1009).
    public var maxFramePayload: Int
    private var buffer: [UInt8] = []
    private var start = 0

    public init(maxFramePayload: Int = 16 << 20) {
        self.maxFramePayload = maxFramePayload
    }

    /// A client frame: always masked with `maskingKey` (§5.3), which the caller draws from a strong random
    /// source (tests pass a fixed one).
    public static func encode(_ frame: WebSocketFrame, maskingKey: (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frame.payload.count + 14)
        bytes.append((frame.fin ? 0x80 : 0) | frame.opcode.rawValue)
        let count = frame.payload.count
        switch count {
        case ..<126:
            bytes.append(0x80 | UInt8(count))
        case ..<65_536:
            bytes.append(0x80 | 126)
            bytes.append(UInt8(count >> 8))
            bytes.append(UInt8(count & 0xFF))
        default:
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((UInt64(count) >> UInt64(shift)) & 0xFF)) }
        }
        let key = [maskingKey.0, maskingKey.1, maskingKey.2, maskingKey.3]
        bytes.append(contentsOf: key)
        for (index, byte) in frame.payload.enumerated() { bytes.append(byte ^ key[index & 3]) }
        return bytes
    }

    /// Adds bytes read from the socket.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, nil when more bytes are needed, or the protocol violation that must end the
    /// connection. Checks what a client must check of server frames: no RSV bits (no extension was
    /// negotiated), a known opcode, no masking, control frames short and unfragmented, the minimal length
    /// encoding, and the size limit.
    public mutating func nextFrame() throws(WebSocketError) -> WebSocketFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start], second = buffer[start + 1]
        guard first & 0x70 == 0 else { throw .protocolViolation("reserved bits set without an extension") }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .protocolViolation("unknown opcode \(first & 0x0F)")
        }
        let fin = first & 0x80 != 0
        guard second & 0x80 == 0 else { throw .protocolViolation("the server masked a frame") }
        var length = UInt64(second & 0x7F)
        var headerLength = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(buffer[start + 2]) << 8 | UInt64(buffer[start + 3])
            headerLength = 4
            guard length >= 126 else { throw .protocolViolation("length \(length) not minimally encoded") }
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = (0..<8).reduce(0) { $0 << 8 | UInt64(buffer[start + 2 + $1]) }
            headerLength = 10
            guard length >> 63 == 0 else { throw .protocolViolation("length has its top bit set") }
            guard length >= 65_536 else { throw .protocolViolation("length \(length) not minimally encoded") }
        }
        if opcode.isControl {
            guard fin else { throw .protocolViolation("fragmented \(opcode) frame") }
            guard length <= 125 else { throw .protocolViolation("\(opcode) frame of \(length) bytes (control frames hold at most 125)") }
        }
        guard length <= UInt64(maxFramePayload) else {
            throw .protocolViolation("frame of \(length) bytes exceeds the \(maxFramePayload)-byte limit")
        }
        let total = headerLength + Int(length)
        guard available >= total else { return nil }
        let payload = Array(buffer[(start + headerLength)..<(start + total)])
        start += total
        // Compact once the consumed prefix dominates, so a long-lived connection does not grow its buffer.
        if start > 4096 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return WebSocketFrame(fin: fin, opcode: opcode, payload: payload)
    }

    /// Bytes received but not yet part of a returned frame.
    public var pendingByteCount: Int { buffer.count - start }
}
