/// What to write to turn the frame on the terminal into the next one, so a price tick costs a few
/// cells instead of a repaint (ratatui's buffer diff, bubbletea's renderer).
public enum FrameDiff {
    /// Unchanged cells this short between two changes of the same style are written again rather
    /// than starting a new run: a few characters cost less than another cursor move.
    public static let bridgeableGap = 3

    /// Runs of changed cells (same row, contiguous, same style) to turn `old` into `new`. nil old or a
    /// size change ⇒ every cell. Identical frames ⇒ []. The cursor is not part of the diff.
    public static func runs(from old: ScreenBuffer?, to new: ScreenBuffer) -> [CellRun] {
        let columns = new.size.columns
        guard columns > 0, new.size.rows > 0 else { return [] }
        guard let old, old.size == new.size else {
            return (0..<new.size.rows).flatMap { row in
                runs(row: row, in: new, changed: Array(repeating: true, count: columns))
            }
        }
        if old.cells == new.cells { return [] }
        var result: [CellRun] = []
        for row in 0..<new.size.rows {
            let start = row * columns
            var changed = Array(repeating: false, count: columns)
            var any = false
            for x in 0..<columns where old.cells[start + x] != new.cells[start + x] {
                changed[x] = true
                any = true
            }
            if any { result += runs(row: row, in: new, changed: changed) }
        }
        return result
    }

    private static func runs(row: Int, in frame: ScreenBuffer, changed: [Bool]) -> [CellRun] {
        let columns = frame.size.columns
        let rowCells = frame.cells[(row * columns)..<((row + 1) * columns)]
        func cell(_ x: Int) -> Cell { rowCells[rowCells.startIndex + x] }

        var result: [CellRun] = []
        var x = 0
        while x < columns {
            guard changed[x] else {
                x += 1
                continue
            }
            let style = cell(x).style
            var characters = [cell(x).character]
            var end = x + 1
            while end < columns {
                if changed[end], cell(end).style == style {
                    characters.append(cell(end).character)
                    end += 1
                    continue
                }
                // Bridge a short stretch of unchanged same-style cells when a change of that style follows.
                var gapEnd = end
                while gapEnd < columns, gapEnd - end < bridgeableGap, !changed[gapEnd], cell(gapEnd).style == style {
                    gapEnd += 1
                }
                guard gapEnd > end, gapEnd < columns, changed[gapEnd], cell(gapEnd).style == style else { break }
                characters += (end..<gapEnd).map { cell($0).character }
                end = gapEnd
            }
            result.append(CellRun(row: row, column: x, text: String(characters), style: style))
            x = end
        }
        return result
    }
}
