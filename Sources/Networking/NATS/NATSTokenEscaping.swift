/// Turns any text (a ticker such as `BRK.B` or `^GSPC`, a host name) into one NATS subject token that
/// is also a legal JetStream KV key, and back.
///
/// A KV key may hold only `-/_=.A-Za-z0-9` (nats.go's `validKeyRe`), and a `.` would split it into
/// several subject tokens. The scheme: ASCII letters, digits, `-` and `_` stay as they are; every other
/// byte of the UTF-8 text, `=` included, becomes `=` and two upper-case hex digits. So `BRK.B` is
/// `BRK=2EB`, `^GSPC` is `=5EGSPC`, `a=b` is `a=3Db`, and the empty string is `=` alone (a token cannot
/// be empty). It is reversible and never produces `*`, `>` or a `.`, so an escaped token is never a
/// wildcard, and the common tickers read as themselves.
public enum NATSTokenEscaping {
    public static func escape(_ text: String) -> String {
        guard !text.isEmpty else { return "=" }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isKept(byte) {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result.unicodeScalars.append("=")
                result.unicodeScalars.append(hexDigits[Int(byte >> 4)])
                result.unicodeScalars.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return result
    }

    /// The text `escape` made `token` from; nil when `token` is not such an output (a stray character,
    /// a lone or lower-case escape, bytes that are not UTF-8).
    public static func unescape(_ token: String) -> String? {
        if token == "=" { return "" }
        var bytes: [UInt8] = []
        var iterator = token.utf8.makeIterator()
        while let byte = iterator.next() {
            if isKept(byte) {
                bytes.append(byte)
                continue
            }
            guard byte == 0x3D, let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            let decoded = high << 4 | low
            // Only the canonical form: a kept byte written as an escape would give two spellings of one text.
            guard !isKept(decoded) else { return nil }
            bytes.append(decoded)
        }
        guard !bytes.isEmpty else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static let hexDigits: [Unicode.Scalar] = Array("0123456789ABCDEF".unicodeScalars)

    private static func isKept(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x5F: true
        default: false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        default: nil
        }
    }
}
