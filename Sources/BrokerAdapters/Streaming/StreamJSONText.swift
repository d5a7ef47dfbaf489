/// JSON text for the small messages clients send to stream brokers. Written by hand rather than with
/// JSONEncoder so the bytes are exactly the documented shape (key order, no `\/` escaping of symbols
/// such as `BRK/B`), which tests and fixture servers compare byte for byte.
enum StreamJSONText {
    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `["A","B"]`.
    static func array(_ texts: [String]) -> String {
        "[" + texts.map(quoted).joined(separator: ",") + "]"
    }
}
