import Networking

/// JSON text for the small messages clients send to stream brokers. Written by hand rather than with
/// JSONEncoder so the bytes are exactly the documented shape (key order, no `\/` escaping of symbols
/// such as `BRK/B`), which tests and fixture servers compare byte for byte.
enum StreamJSONText {
    /// `text` as a JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        JSONStringLiteral.quoted(text)
    }

    /// `["A","B"]`.
    static func array(_ texts: [String]) -> String {
        "[" + texts.map(quoted).joined(separator: ",") + "]"
    }
}
