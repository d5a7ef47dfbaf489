/// The 4-byte key a client XORs its payloads with (RFC 6455 §5.3). It only has to be unpredictable to
/// scripts in a browser; here it keeps proxies from mistaking our frames for HTTP. Injected, so tests
/// see fixed bytes on the wire.
public struct WebSocketMaskingKey: Sendable, Hashable {
    public var bytes: (UInt8, UInt8, UInt8, UInt8)

    public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        bytes = (b0, b1, b2, b3)
    }

    public init(_ value: UInt32) {
        self.init(UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value))
    }

    /// A fresh key from the system's random source.
    public static func random() -> WebSocketMaskingKey {
        var generator = SystemRandomNumberGenerator()
        return WebSocketMaskingKey(generator.next())
    }

    public subscript(index: Int) -> UInt8 {
        switch index & 3 {
        case 0: bytes.0
        case 1: bytes.1
        case 2: bytes.2
        default: bytes.3
        }
    }

    /// XORs `payload` in place, starting at key byte `offset` (masking and unmasking are the same).
    public func apply(to payload: inout [UInt8], keyOffset offset: Int = 0) {
        let key = [bytes.0, bytes.1, bytes.2, bytes.3]
        payload.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                buffer[index] ^= key[(index + offset) & 3]
            }
        }
    }

    public static func == (lhs: WebSocketMaskingKey, rhs: WebSocketMaskingKey) -> Bool {
        lhs.bytes == rhs.bytes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.0)
        hasher.combine(bytes.1)
        hasher.combine(bytes.2)
        hasher.combine(bytes.3)
    }
}
