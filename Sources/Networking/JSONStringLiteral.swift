import Domain
import TextSafety

/// A string as a JSON string literal, written by hand rather than with `JSONEncoder`: the bytes are
/// exactly what is documented (no `\/` escaping of symbols such as `BRK/B`), which stream messages and
/// their fixture servers compare byte for byte, and whatever `VisibleText` escapes (C0 and C1 controls,
/// bidi controls, line separators) is escaped as `\uXXXX`, so JSON printed for a terminal carries none raw.
public enum JSONStringLiteral {
    /// `text` with its quotes.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where VisibleText.isSteering(scalar):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
