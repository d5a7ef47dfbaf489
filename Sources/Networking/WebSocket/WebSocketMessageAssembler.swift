/// Turns frames into messages (RFC 6455 §5.4, §5.5, §8.1): joins fragments, lets control frames through
/// between them, validates text as UTF-8 and enforces a message size limit. Pure.
public struct WebSocketMessageAssembler: Sendable {
    public enum Event: Sendable, Hashable {
        case message(WebSocketMessage)
        case ping([UInt8])
        case pong([UInt8])
        /// The peer's close: its code (1005 when it sent none) and reason.
        case close(code: UInt16, reason: String)
    }

    public var maxMessageSize: Int
    private var fragments: [UInt8] = []
    private var fragmentedOpcode: WebSocketOpcode?

    public init(maxMessageSize: Int = 16 << 20) {
        self.maxMessageSize = maxMessageSize
    }

    public mutating func receive(_ frame: WebSocketFrame) throws(WebSocketError) -> Event? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return try Self.close(frame.payload)
        case .text, .binary:
            guard fragmentedOpcode == nil else { throw .protocolViolation("new \(frame.opcode) message inside a fragmented one") }
            guard frame.payload.count <= maxMessageSize else { throw tooBig(frame.payload.count) }
            if frame.fin { return try Self.message(frame.opcode, frame.payload) }
            fragmentedOpcode = frame.opcode
            fragments = frame.payload
            return nil
        case .continuation:
            guard let opcode = fragmentedOpcode else { throw .protocolViolation("continuation frame without a message to continue") }
            guard fragments.count + frame.payload.count <= maxMessageSize else { throw tooBig(fragments.count + frame.payload.count) }
            fragments.append(contentsOf: frame.payload)
            guard frame.fin else { return nil }
            defer {
                fragments = []
                fragmentedOpcode = nil
            }
            return try Self.message(opcode, fragments)
        }
    }

    private func tooBig(_ size: Int) -> WebSocketError {
        .protocolViolation("message of \(size) bytes exceeds the \(maxMessageSize)-byte limit")
    }

    private static func message(_ opcode: WebSocketOpcode, _ payload: [UInt8]) throws(WebSocketError) -> Event {
        guard opcode == .text else { return .message(.binary(payload)) }
        guard let text = String(validating: payload, as: UTF8.self) else { throw .protocolViolation("text message is not valid UTF-8") }
        return .message(.text(text))
    }

    /// §5.5.1 and §7.4: no body means 1005; one byte is malformed; codes that may not be sent on the wire,
    /// or are unassigned below 3000, are protocol errors; the reason must be UTF-8.
    static func close(_ payload: [UInt8]) throws(WebSocketError) -> Event {
        guard !payload.isEmpty else { return .close(code: 1005, reason: "") }
        guard payload.count >= 2 else { throw .protocolViolation("close frame with a 1-byte body") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard isValidCloseCode(code) else { throw .protocolViolation("invalid close code \(code)") }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw .protocolViolation("close reason is not valid UTF-8")
        }
        return .close(code: code, reason: reason)
    }

    public static func isValidCloseCode(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014: true
        case 3000...4999: true
        default: false
        }
    }

    /// A close frame's body: the code, then the reason cut to fit the 125-byte control frame limit
    /// without splitting a UTF-8 sequence.
    public static func closePayload(code: UInt16, reason: String) -> [UInt8] {
        var reasonBytes: [UInt8] = []
        for character in reason {
            let bytes = Array(String(character).utf8)
            guard reasonBytes.count + bytes.count <= 123 else { break }
            reasonBytes += bytes
        }
        return [UInt8(code >> 8), UInt8(code & 0xFF)] + reasonBytes
    }
}
