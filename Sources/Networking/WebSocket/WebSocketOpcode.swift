/// The frame types of RFC 6455 §5.2. Opcodes 0x3–0x7 and 0xB–0xF are reserved: the decoder rejects them
/// instead of representing them, so every `WebSocketFrame` carries a known opcode.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Control frames (close, ping, pong) may not be fragmented, carry at most 125 bytes and may arrive
    /// between the fragments of a message (RFC 6455 §5.5).
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
