import TerminalUI

/// Remembers the frame on screen and reports which cells the next frame changes, so the terminal
/// receives only those. Pure: the curses calls live in `CursesScreen`.
struct CursesFrameWriter: Sendable {
    /// What the terminal shows, or nil when it must be redrawn from scratch.
    private(set) var onScreen: ScreenBuffer?

    /// Forgets the screen contents: after a resize, a suspend or a clear, every cell is redrawn.
    mutating func invalidate() {
        onScreen = nil
    }

    /// The runs to draw to go from what is on screen to `next`, which becomes what is on screen.
    mutating func changes(to next: ScreenBuffer) -> [CursesCellRun] {
        let runs = Self.runs(from: onScreen, to: next)
        onScreen = next
        return runs
    }

    /// Runs of changed cells per row, split where the style changes. Everything is a change when
    /// there is no previous frame or its size differs.
    static func runs(from previous: ScreenBuffer?, to next: ScreenBuffer) -> [CursesCellRun] {
        let comparable = previous.flatMap { $0.size == next.size ? $0 : nil }
        var runs: [CursesCellRun] = []
        for row in 0..<next.size.rows {
            var current: CursesCellRun?
            for column in 0..<next.size.columns {
                let cell = next[column, row]
                if let comparable, comparable[column, row] == cell {
                    if let finished = current { runs.append(finished) }
                    current = nil
                    continue
                }
                if current != nil, current?.style == cell.style {
                    current?.characters.append(cell.character)
                } else {
                    if let finished = current { runs.append(finished) }
                    current = CursesCellRun(row: row, column: column, style: cell.style, characters: [cell.character])
                }
            }
            if let finished = current { runs.append(finished) }
        }
        return runs
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
