import TerminalKit

/// A frame's colors as text, for snapshots of themes: each cell is a letter standing for its
/// (foreground, background) pair, or `.` for the terminal's defaults, and a legend under the grid
/// says what each letter is. Attributes (bold, dim, reverse) are left to style tests.
enum ColorMap {
    static func text(of buffer: ScreenBuffer) -> String {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        var pairs: [String] = []
        var lines: [String] = []
        for row in 0..<buffer.size.rows {
            var line = ""
            for column in 0..<buffer.size.columns {
                let style = buffer[column, row].style
                guard style.foreground != nil || style.background != nil else {
                    line.append(".")
                    continue
                }
                let pair = "fg \(name(style.foreground)) bg \(name(style.background))"
                let index = pairs.firstIndex(of: pair) ?? {
                    pairs.append(pair)
                    return pairs.count - 1
                }()
                line.append(index < letters.count ? letters[index] : "?")
            }
            lines.append("|\(line)|")
        }
        let legend = pairs.enumerated().map { "\(letters[min($0.offset, letters.count - 1)]): \($0.element)" }
        return (lines + legend).map { $0 + "\n" }.joined()
    }

    private static func name(_ color: TerminalColor?) -> String {
        guard let color else { return "default" }
        let basic = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        return color.isBasic ? basic[Int(color.index)] : "\(color.index)"
    }
}
