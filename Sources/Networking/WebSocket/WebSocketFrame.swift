/// One frame as it travels on the wire, payload unmasked.
public struct WebSocketFrame: Sendable, Hashable {
    /// Last fragment of a message (always true for control frames).
    public var fin: Bool
    /// RSV1–RSV3 as the low three bits (RSV1 = 0b100). Nonzero only with a negotiated extension, which
    /// this client never offers; the encoder writes them anyway so tests can build invalid frames.
    public var reservedBits: UInt8
    public var opcode: WebSocketOpcode
    public var payload: [UInt8]

    public init(fin: Bool = true, reservedBits: UInt8 = 0, opcode: WebSocketOpcode, payload: [UInt8] = []) {
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.payload = payload
    }

    public static func text(_ text: String) -> WebSocketFrame {
        WebSocketFrame(opcode: .text, payload: Array(text.utf8))
    }

    public static func binary(_ bytes: [UInt8]) -> WebSocketFrame {
        WebSocketFrame(opcode: .binary, payload: bytes)
    }

    public static func close(_ close: WebSocketCloseFrame) -> WebSocketFrame {
        WebSocketFrame(opcode: .close, payload: close.payload)
    }
}
