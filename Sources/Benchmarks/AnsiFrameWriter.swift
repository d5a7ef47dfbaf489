import TerminalKit
import TerminalUI

/// A minimal terminal writer of `FrameDiff` runs: a cursor move where the run does not continue the
/// previous one, an SGR sequence where the style changes, then the text. It stands in for the curses
/// output path (not part of this build) to count the bytes a frame costs on the wire.
enum AnsiFrameWriter {
    /// The bytes that turn the screen showing the runs' old frame into the new one.
    static func update(_ runs: [CellRun]) -> [UInt8] {
        var writer = Pen()
        for run in runs { writer.write(run) }
        writer.finish()
        return writer.bytes
    }

    /// A full repaint: clear, then every run that is not blank in the default style (clearing drew those).
    static func repaint(_ frame: ScreenBuffer) -> [UInt8] {
        var writer = Pen()
        writer.bytes += Array("\u{1B}[H\u{1B}[2J".utf8)
        for run in FrameDiff.runs(from: nil, to: frame)
        where !(run.style == .plain && run.text.allSatisfy { $0 == " " }) {
            writer.write(run)
        }
        writer.finish()
        return writer.bytes
    }

    private struct Pen {
        var bytes: [UInt8] = []
        var style: Style?
        var cursor: (row: Int, column: Int)?

        mutating func write(_ run: CellRun) {
            if cursor.map({ $0.row != run.row || $0.column != run.column }) ?? true {
                bytes += Array("\u{1B}[\(run.row + 1);\(run.column + 1)H".utf8)
            }
            if style != run.style {
                bytes += AnsiFrameWriter.sgr(run.style)
                style = run.style
            }
            bytes += Array(run.text.utf8)
            cursor = (run.row, run.column + run.width)
        }

        mutating func finish() {
            if style != nil, style != .plain { bytes += Array("\u{1B}[0m".utf8) }
        }
    }

    static func sgr(_ style: Style) -> [UInt8] {
        var codes = ["0"]
        if style.bold { codes.append("1") }
        if style.dim { codes.append("2") }
        if style.underline { codes.append("4") }
        if style.reverse { codes.append("7") }
        // The eight ANSI colors as 3x / 4x, the rest of the palette as 38;5;n / 48;5;n.
        if let foreground = style.foreground { codes.append(foreground.isBasic ? "3\(foreground.index)" : "38;5;\(foreground.index)") }
        if let background = style.background { codes.append(background.isBasic ? "4\(background.index)" : "48;5;\(background.index)") }
        return Array("\u{1B}[\(codes.joined(separator: ";"))m".utf8)
    }
}
