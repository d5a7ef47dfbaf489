/// RFC 6455 §5.2 opcodes.
public enum WebSocketOpcode: UInt8, Sendable, Hashable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Close, ping and pong: at most 125 bytes and never fragmented (§5.5).
    public var isControl: Bool { rawValue & 0x8 != 0 }
}

/// One frame on the wire, unmasked.
public struct WebSocketFrame: Sendable, Hashable {
    public var fin: Bool
    public var opcode: WebSocketOpcode
    public var payload: [UInt8]

    public init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8] = []) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
    }
}
