/// A violation of RFC 6455 found by the codec or the assembler, with the close code to send before
/// hanging up (§7.4.1). The connection turns it into `WebSocketError.protocolViolation(detail)`.
public struct WebSocketProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// 1002: a malformed frame or an invalid close code.
    public static let protocolErrorCode: UInt16 = 1002
    /// 1007: text (or a close reason) that is not UTF-8.
    public static let invalidPayloadCode: UInt16 = 1007
    /// 1009: a frame or message over the configured limit.
    public static let tooBigCode: UInt16 = 1009

    public var closeCode: UInt16
    public var detail: String

    public init(closeCode: UInt16, detail: String) {
        self.closeCode = closeCode
        self.detail = detail
    }

    static func malformed(_ detail: String) -> WebSocketProtocolError {
        WebSocketProtocolError(closeCode: protocolErrorCode, detail: detail)
    }

    public var description: String { "\(detail) (close \(closeCode))" }
}
