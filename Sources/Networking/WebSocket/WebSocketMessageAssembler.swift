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
            if frame.fin { return try wholeMessage(frame) }
            partialOpcode = frame.opcode
            partialPayload = []
            utf8 = WebSocketUTF8Validator()
            return try appendFragment(frame)
        case .continuation:
            guard partialOpcode != nil else { throw .malformed("continuation frame without a message to continue") }
            return try appendFragment(frame)
        }
    }

    /// A message in one frame, as brokers send every message, without the fragment path's byte-by-byte
    /// check and copy into `partialPayload` (together 2,800 instructions of a 150-byte quote message
    /// under callgrind, more than decoding its JSON). ASCII, which every broker's JSON is, is told by
    /// looking at eight bytes at a time and becomes a `String` in one copy (790 instructions in all, the
    /// copy's own check included: no public `String` initialiser skips it); anything else is checked by
    /// the standard library (RFC 3629's rules, as `WebSocketUTF8Validator`'s; about 1,300).
    private func wholeMessage(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Event {
        guard frame.payload.count <= maxMessageSize else { throw Self.tooBig(maxMessageSize) }
        guard frame.opcode == .text else { return .message(.binary(frame.payload)) }
        if Self.isASCII(frame.payload) { return .message(.text(String(decoding: frame.payload, as: UTF8.self))) }
        if let text = String(validating: frame.payload, as: UTF8.self) { return .message(.text(text)) }
        // Invalid: the validator says where, for the same error as a fragmented message would get.
        var utf8 = WebSocketUTF8Validator()
        throw utf8.feed(frame.payload) ? Self.endsInsideCharacter : Self.notUTF8
    }

    /// No byte has its top bit set: the bytes are ASCII, so valid UTF-8.
    static func isASCII(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            let count = raw.count
            var offset = 0
            var seen: UInt64 = 0
            while offset + 8 <= count {
                seen |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                offset += 8
            }
            while offset < count {
                seen |= UInt64(raw[offset])
                offset += 1
            }
            return seen & 0x8080_8080_8080_8080 == 0
        }
    }

    private static func tooBig(_ limit: Int) -> WebSocketProtocolError {
        WebSocketProtocolError(closeCode: WebSocketProtocolError.tooBigCode, detail: "message of more than \(limit) bytes")
    }

    private static let notUTF8 = WebSocketProtocolError(
        closeCode: WebSocketProtocolError.invalidPayloadCode, detail: "text message is not valid UTF-8")
    private static let endsInsideCharacter = WebSocketProtocolError(
        closeCode: WebSocketProtocolError.invalidPayloadCode, detail: "text message ends inside a UTF-8 character")

    private mutating func appendFragment(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> Event? {
        guard partialPayload.count + frame.payload.count <= maxMessageSize else { throw Self.tooBig(maxMessageSize) }
        let isText = partialOpcode == .text
        if isText, !utf8.feed(frame.payload) { throw Self.notUTF8 }
        partialPayload += frame.payload
        guard frame.fin else { return nil }

        defer {
            partialOpcode = nil
            partialPayload = []
        }
        if isText {
            guard utf8.isAtCharacterBoundary else { throw Self.endsInsideCharacter }
            return .message(.text(String(decoding: partialPayload, as: UTF8.self)))
        }
        return .message(.binary(partialPayload))
    }
}
