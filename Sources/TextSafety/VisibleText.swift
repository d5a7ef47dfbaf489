/// The one way text from outside (arguments, files, environment variables, broker answers) is shown:
/// on screen, on stderr and in `print`'s table. Printable characters stay as they were typed (case
/// included); everything that could steer a terminal or reorder a line is spelled out as `\u{…}`, so the
/// user sees exactly what was sent, and nothing of it acts on the terminal:
/// - C0 controls (tab and line breaks too), DEL and C1 controls, which start escape sequences,
///   move the cursor or ring the bell;
/// - bidi embedding, override, isolate and mark characters, which reorder what follows them;
/// - the line and paragraph separators.
///
/// Escaping is idempotent (a backslash is left alone), so text escaped where it was received can be
/// escaped again where it is shown.
public enum VisibleText {
    public static func escaped(_ text: String) -> String {
        guard needsEscaping(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isSteering(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Printable ASCII, which most text is, needs nothing: one pass over the bytes.
    static func needsEscaping(_ text: String) -> Bool {
        let isPrintableASCII = text.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        } ?? text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        return !isPrintableASCII && text.unicodeScalars.contains(where: isSteering)
    }

    /// A scalar that acts on the terminal or on the order of the line instead of being drawn.
    public static func isSteering(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        // A `switch` rather than a `Set`: this runs for every scalar drawn, and a set's probe length
        // depends on the process's random hash seed.
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}
