/// Incremental UTF-8 validation (RFC 3629, as RFC 6455 §8.1 requires), so a text message can be checked
/// fragment by fragment even when a fragment ends in the middle of a character, and rejected at the
/// first bad byte rather than after the whole message has been buffered.
///
/// Rejects overlong forms, UTF-16 surrogates (U+D800–U+DFFF) and code points above U+10FFFF by narrowing
/// the allowed range of the byte after each lead byte (the Unicode standard's Table 3-7).
public struct WebSocketUTF8Validator: Sendable, Hashable {
    private var pendingContinuations = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    public init() {}

    /// True when every byte so far can begin or continue valid UTF-8.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> Bool {
        for byte in bytes {
            if pendingContinuations == 0 {
                switch byte {
                case 0x00...0x7F: continue
                case 0xC2...0xDF: expect(1, 0x80, 0xBF)
                case 0xE0: expect(2, 0xA0, 0xBF)
                case 0xE1...0xEC, 0xEE...0xEF: expect(2, 0x80, 0xBF)
                case 0xED: expect(2, 0x80, 0x9F)
                case 0xF0: expect(3, 0x90, 0xBF)
                case 0xF1...0xF3: expect(3, 0x80, 0xBF)
                case 0xF4: expect(3, 0x80, 0x8F)
                default: return false
                }
            } else {
                guard byte >= lower, byte <= upper else { return false }
                expect(pendingContinuations - 1, 0x80, 0xBF)
            }
        }
        return true
    }

    /// True when no character is cut off at the end: the message may end here.
    public var isAtCharacterBoundary: Bool { pendingContinuations == 0 }

    public static func isValid(_ bytes: some Sequence<UInt8>) -> Bool {
        var validator = WebSocketUTF8Validator()
        return validator.feed(bytes) && validator.isAtCharacterBoundary
    }

    private mutating func expect(_ continuations: Int, _ lower: UInt8, _ upper: UInt8) {
        pendingContinuations = continuations
        self.lower = lower
        self.upper = upper
    }
}
