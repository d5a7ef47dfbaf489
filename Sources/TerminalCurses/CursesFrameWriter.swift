import TerminalKit

/// Remembers the frame on screen and reports which cells the next frame changes, so the terminal
/// receives only those. Pure: the curses calls live in `CursesScreen`.
struct CursesFrameWriter: Sendable {
    /// What the terminal shows, or nil when it must be redrawn from scratch.
    private(set) var onScreen: ScreenBuffer?

    /// Forgets the screen contents: after a resize, a suspend or a clear, every cell is redrawn.
    mutating func invalidate() {
        onScreen = nil
    }

    /// Where `next` differs from what is on screen (its cells to draw are read from `next`), which
    /// becomes what is on screen. The diff itself is TerminalKit's `FrameDiff`, the same one the
    /// benchmarks measure.
    mutating func changes(to next: ScreenBuffer) -> [CellSpan] {
        let spans = FrameDiff.spans(from: onScreen, to: next)
        onScreen = next
        return spans
    }

    /// `buffer` cut or padded with blanks to `size`: the app may render for a size that just changed.
    static func fitted(_ buffer: ScreenBuffer, to size: ScreenSize) -> ScreenBuffer {
        guard buffer.size != size else { return buffer }
        var fitted = ScreenBuffer(size: size)
        for row in 0..<min(size.rows, buffer.size.rows) {
            for column in 0..<min(size.columns, buffer.size.columns) {
                fitted[column, row] = buffer[column, row]
            }
        }
        if let cursor = buffer.cursor, cursor.column < size.columns, cursor.row < size.rows {
            fitted.cursor = cursor
        }
        return fitted
    }
}
