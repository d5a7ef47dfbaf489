/// Turns frames into what the application sees: whole messages (fragments joined, text validated as
/// UTF-8 while it arrives) and control events. A pure value: the connection decides what to answer.
///
/// Control frames may arrive between the fragments of a message (RFC 6455 §5.4); they are returned at
/// once and leave the message in progress untouched.
public struct WebSocketMessageAssembler: Sendable {
    public enum Event: Sendable, Hashable {
        case message(WebSocketMessage)
        case ping([UInt8])
        case pong([UInt8])
        case close(WebSocketCloseFrame)
    }

    public static let defaultMaxMessageSize = 16 << 20

    public let maxMessageSize: Int
    private var partialOpcode: WebSocketOpcode?
    private var partialPayload: [UInt8] = []
    private var utf8 = WebSocketUTF8Validator()

    public init(maxMessageSize: Int = WebSocketMessageAssembler.defaultMaxMessageSize) {
        self.maxMessageSize = maxMessageSize
    }

    /// True while a fragmented message has started and not yet ended.
    public var isAssembling: Bool { partialOpcode != nil }

    /// The event `frame` completes, or nil when it is a fragment of a message still in progress.
    public mutating func push(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Event? {
        guard frame.reservedBits == 0 else { throw .malformed("reserved bits set without a negotiated extension") }
        switch frame.opcode {
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return .pong(frame.payload)
        case .close:
            return .close(try WebSocketCloseFrame.parse(frame.payload))
        case .text, .binary:
            guard partialOpcode == nil else {
                throw .malformed("new \(frame.opcode) message before the previous fragmented message ended")
            }
            partialOpcode = frame.opcode
            partialPayload = []
            utf8 = WebSocketUTF8Validator()
            return try appendFragment(frame)
        case .continuation:
            guard partialOpcode != nil else { throw .malformed("continuation frame without a message to continue") }
            return try appendFragment(frame)
        }
    }

    private mutating func appendFragment(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Event? {
        guard partialPayload.count + frame.payload.count <= maxMessageSize else {
            throw WebSocketProtocolError(
                closeCode: WebSocketProtocolError.tooBigCode,
                detail: "message of more than \(maxMessageSize) bytes"
            )
        }
        let isText = partialOpcode == .text
        if isText, !utf8.feed(frame.payload) {
            throw WebSocketProtocolError(closeCode: WebSocketProtocolError.invalidPayloadCode, detail: "text message is not valid UTF-8")
        }
        partialPayload += frame.payload
        guard frame.fin else { return nil }

        defer {
            partialOpcode = nil
            partialPayload = []
        }
        if isText {
            guard utf8.isAtCharacterBoundary else {
                throw WebSocketProtocolError(closeCode: WebSocketProtocolError.invalidPayloadCode, detail: "text message ends inside a UTF-8 character")
            }
            return .message(.text(String(decoding: partialPayload, as: UTF8.self)))
        }
        return .message(.binary(partialPayload))
    }
}
