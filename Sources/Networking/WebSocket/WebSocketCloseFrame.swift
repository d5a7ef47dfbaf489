/// The payload of a close frame (RFC 6455 §5.5.1): an optional status code and a UTF-8 reason.
public struct WebSocketCloseFrame: Sendable, Hashable {
    /// 1000: the purpose of the connection is fulfilled.
    public static let normalClosure: UInt16 = 1000
    /// 1001: the endpoint is going away (we use it when the reader stops listening).
    public static let goingAway: UInt16 = 1001

    /// nil when the peer sent an empty close frame ("no status", reported as 1005 by other stacks).
    public var code: UInt16?
    public var reason: String

    public init(code: UInt16?, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// Codes a peer may put on the wire (RFC 6455 §7.4 and the IANA registry): 1004–1006 and 1015 are
    /// reserved for reporting, never sent; 3000–4999 belong to libraries and applications.
    public static func isSendable(code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    /// Parses a received close payload. An invalid code is a protocol error (1002), a reason that is not
    /// UTF-8 an invalid payload (1007).
    public static func parse(_ payload: [UInt8]) throws(WebSocketProtocolError) -> WebSocketCloseFrame {
        if payload.isEmpty { return WebSocketCloseFrame(code: nil) }
        guard payload.count >= 2 else { throw .malformed("close frame with a 1-byte payload") }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        guard isSendable(code: code) else { throw .malformed("invalid close code \(code)") }
        let reasonBytes = payload[2...]
        guard WebSocketUTF8Validator.isValid(reasonBytes) else {
            throw WebSocketProtocolError(closeCode: WebSocketProtocolError.invalidPayloadCode, detail: "close reason is not valid UTF-8")
        }
        return WebSocketCloseFrame(code: code, reason: String(decoding: reasonBytes, as: UTF8.self))
    }

    /// The payload to send. The reason is cut at a character boundary so the frame stays within the
    /// 125 bytes a control frame may carry.
    public var payload: [UInt8] {
        guard let code else { return [] }
        var bytes = [UInt8(code >> 8), UInt8(code & 0xFF)]
        var reasonBytes: [UInt8] = []
        for character in reason {
            let encoded = Array(String(character).utf8)
            guard reasonBytes.count + encoded.count <= 123 else { break }
            reasonBytes += encoded
        }
        bytes += reasonBytes
        return bytes
    }
}
