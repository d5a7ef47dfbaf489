/// RFC 6455 framing as a value: bytes in, frames out, and frames to bytes. No I/O, no clock, no
/// randomness of its own (the masking key is injected), so it can be unit-tested byte by byte and driven
/// by a fuzzer.
///
/// Decoding is incremental: `append` whatever the socket produced (half a header, three frames and a
/// bit), then call `nextFrame()` until it returns nil. Headers are validated as soon as their first two
/// bytes are in, and a frame's length is checked against `maxFrameSize` before any of its payload is
/// buffered, so a hostile length cannot make us allocate.
public struct WebSocketFrameCodec: Sendable {
    /// Which end we are. A client masks what it sends and rejects masked frames; a server the reverse
    /// (RFC 6455 §5.1). Tests use `.server` to produce what a server would send.
    public enum Role: Sendable, Hashable {
        case client
        case server
    }

    public static let defaultMaxFrameSize = 16 << 20

    public let role: Role
    public let maxFrameSize: Int
    private let maskingKeySource: @Sendable () -> WebSocketMaskingKey

    private var buffer: [UInt8] = []
    private var readIndex = 0
    /// Once the stream is broken nothing after it can be trusted: every later call throws the same error.
    private var failure: WebSocketProtocolError?

    public init(
        role: Role = .client,
        maxFrameSize: Int = WebSocketFrameCodec.defaultMaxFrameSize,
        maskingKeySource: @escaping @Sendable () -> WebSocketMaskingKey = WebSocketMaskingKey.random
    ) {
        self.role = role
        self.maxFrameSize = maxFrameSize
        self.maskingKeySource = maskingKeySource
    }

    /// Bytes received but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    // MARK: - Encoding

    /// `frame` as bytes for our role: masked with a key from the injected source when we are the client.
    public func encode(_ frame: WebSocketFrame) -> [UInt8] {
        Self.encode(frame, maskingKey: role == .client ? maskingKeySource() : nil)
    }

    /// `frame` as bytes, masked with `maskingKey` when one is given. Lengths use the shortest form: 7 bits
    /// up to 125, 16 bits up to 65535, 64 bits beyond (RFC 6455 §5.2).
    public static func encode(_ frame: WebSocketFrame, maskingKey: WebSocketMaskingKey?) -> [UInt8] {
        let length = frame.payload.count
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length + 14)
        bytes.append((frame.fin ? 0x80 : 0) | ((frame.reservedBits & 0x7) << 4) | frame.opcode.rawValue)
        let maskBit: UInt8 = maskingKey == nil ? 0 : 0x80
        switch length {
        case 0...125:
            bytes.append(maskBit | UInt8(length))
        case 126...0xFFFF:
            bytes.append(maskBit | 126)
            bytes.append(UInt8(truncatingIfNeeded: length >> 8))
            bytes.append(UInt8(truncatingIfNeeded: length))
        default:
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift)))
            }
        }
        guard let maskingKey else {
            bytes.append(contentsOf: frame.payload)
            return bytes
        }
        bytes.append(contentsOf: [maskingKey[0], maskingKey[1], maskingKey[2], maskingKey[3]])
        var payload = frame.payload
        maskingKey.apply(to: &payload)
        bytes.append(contentsOf: payload)
        return bytes
    }

    // MARK: - Decoding

    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, nil when more bytes are needed. Throws on the first violation, and again
    /// on every later call.
    public mutating func nextFrame() throws(WebSocketProtocolError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            return try decodeFrame()
        } catch {
            failure = error
            throw error
        }
    }

    private mutating func decodeFrame() throws(WebSocketProtocolError) -> WebSocketFrame? {
        let available = buffer.count - readIndex
        guard available >= 2 else { return nil }
        let first = buffer[readIndex]
        let second = buffer[readIndex + 1]
        let fin = first & 0x80 != 0
        let reservedBits = (first >> 4) & 0x7
        guard reservedBits == 0 else {
            throw .malformed("reserved bits set (RSV \(String(reservedBits, radix: 2))) without a negotiated extension")
        }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else {
            throw .malformed("unknown opcode 0x\(String(first & 0x0F, radix: 16, uppercase: true))")
        }
        let masked = second & 0x80 != 0
        switch (role, masked) {
        case (.client, true): throw .malformed("server sent a masked frame")
        case (.server, false): throw .malformed("client sent an unmasked frame")
        default: break
        }
        let shortLength = Int(second & 0x7F)
        if opcode.isControl {
            guard fin else { throw .malformed("fragmented \(opcode) frame") }
            guard shortLength <= 125 else { throw .malformed("\(opcode) frame longer than 125 bytes") }
        }

        let extendedLengthSize = shortLength == 126 ? 2 : shortLength == 127 ? 8 : 0
        let headerSize = 2 + extendedLengthSize + (masked ? 4 : 0)
        guard available >= headerSize else { return nil }

        var length = UInt64(shortLength)
        if extendedLengthSize > 0 {
            length = 0
            for offset in 0..<extendedLengthSize {
                length = length << 8 | UInt64(buffer[readIndex + 2 + offset])
            }
            guard length >> 63 == 0 else { throw .malformed("frame length has its most significant bit set") }
        }
        guard length <= UInt64(maxFrameSize) else {
            throw WebSocketProtocolError(closeCode: WebSocketProtocolError.tooBigCode, detail: "frame of \(length) bytes exceeds the \(maxFrameSize)-byte limit")
        }
        let payloadLength = Int(length)
        guard available - headerSize >= payloadLength else { return nil }

        let payloadStart = readIndex + headerSize
        var payload = Array(buffer[payloadStart..<payloadStart + payloadLength])
        if masked {
            let keyStart = readIndex + 2 + extendedLengthSize
            WebSocketMaskingKey(buffer[keyStart], buffer[keyStart + 1], buffer[keyStart + 2], buffer[keyStart + 3]).apply(to: &payload)
        }
        readIndex = payloadStart + payloadLength
        compactIfWorthwhile()
        return WebSocketFrame(fin: fin, reservedBits: 0, opcode: opcode, payload: payload)
    }

    /// Drops consumed bytes once they are at least half the buffer, so appends stay amortized O(1) and a
    /// long-lived connection does not keep everything it ever received.
    private mutating func compactIfWorthwhile() {
        if readIndex == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 16)
            readIndex = 0
        } else if readIndex >= 4096, readIndex * 2 >= buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
