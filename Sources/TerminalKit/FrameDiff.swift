import Foundation

/// What to write to turn the frame on the terminal into the next one, so a price tick costs a few
/// cells instead of a repaint (ratatui's buffer diff, bubbletea's renderer).
public enum FrameDiff {
    /// Unchanged cells this short between two changes of the same style are written again rather
    /// than starting a new run: a few characters cost less than another cursor move.
    public static let bridgeableGap = 3

    /// Runs of changed cells (same row, contiguous, same style) to turn `old` into `new`. nil old or a
    /// size change ⇒ every cell. Identical frames ⇒ []. The cursor is not part of the diff.
    public static func runs(from old: ScreenBuffer?, to new: ScreenBuffer) -> [CellRun] {
        spans(from: old, to: new).map { run(of: $0, in: new) }
    }

    /// The runs' places in `new`, without their text: what the curses screen draws from, reading each
    /// cell's code from the frame.
    public static func spans(from old: ScreenBuffer?, to new: ScreenBuffer) -> [CellSpan] {
        let columns = new.size.columns
        guard columns > 0, new.size.rows > 0 else { return [] }
        var result: [CellSpan] = []
        // Through buffers: on the arrays, each cell's read and write checked bounds and uniqueness.
        withUnsafeTemporaryAllocation(of: Bool.self, capacity: columns) { changed in
            changed.initialize(repeating: true)
            new.codes.withUnsafeBufferPointer { newCodes in
                guard let old, old.size == new.size else {
                    for row in 0..<new.size.rows {
                        let codes = UnsafeBufferPointer(rebasing: newCodes[(row * columns)..<((row + 1) * columns)])
                        appendSpans(row: row, codes: codes, changed: changed, to: &result)
                    }
                    return
                }
                // Most rows of a frame are unchanged: compare them as memory first, cells only where they differ.
                let exact = old.codesAreCells && new.codesAreCells
                let rowBytes = columns * MemoryLayout<UInt64>.stride
                old.codes.withUnsafeBufferPointer { oldCodes in
                    for row in 0..<new.size.rows {
                        let start = row * columns
                        if exact, memcmp(oldCodes.baseAddress! + start, newCodes.baseAddress! + start, rowBytes) == 0 { continue }
                        var any = false
                        for x in 0..<columns {
                            let differs = exact ? oldCodes[start + x] != newCodes[start + x] : !new.sameCell(at: start + x, as: old)
                            changed[x] = differs
                            any = any || differs
                        }
                        if any {
                            let codes = UnsafeBufferPointer(rebasing: newCodes[start..<(start + columns)])
                            appendSpans(row: row, codes: codes, changed: changed, to: &result)
                        }
                    }
                }
            }
        }
        return result
    }

    /// `span`'s cells in `frame` as text, one character per cell, in the style of its first cell; the
    /// part of it outside the frame is left out (a span wholly outside gives no text, plain).
    public static func run(of span: CellSpan, in frame: ScreenBuffer) -> CellRun {
        var text: [UInt8] = []
        var style = Style.plain
        frame.withCodes(row: span.row, columns: span.column..<(span.column + span.width)) { codes in
            guard let first = codes.first else { return }
            style = CellCode.style(of: first)
            for code in codes {
                if let scalar = CellCode.scalar(of: code) {
                    if scalar.isASCII {
                        text.append(UInt8(truncatingIfNeeded: scalar.value))
                    } else {
                        text.append(contentsOf: UTF8.encode(scalar)!)
                    }
                } else {
                    text.append(contentsOf: frame.character(of: code).utf8)
                }
            }
        }
        return CellRun(row: span.row, column: span.column, text: String(decoding: text, as: UTF8.self), style: style)
    }

    /// The spans of one row, from its cells' codes and which of them changed.
    private static func appendSpans(
        row: Int, codes: UnsafeBufferPointer<UInt64>, changed: UnsafeMutableBufferPointer<Bool>, to result: inout [CellSpan]
    ) {
        let columns = codes.count
        func style(_ x: Int) -> UInt64 { CellCode.styleBits(of: codes[x]) }

        var x = 0
        while x < columns {
            guard changed[x] else {
                x += 1
                continue
            }
            let runStyle = style(x)
            var end = x + 1
            while end < columns {
                if changed[end], style(end) == runStyle {
                    end += 1
                    continue
                }
                // Bridge a short stretch of unchanged same-style cells when a change of that style follows.
                var gapEnd = end
                while gapEnd < columns, gapEnd - end < bridgeableGap, !changed[gapEnd], style(gapEnd) == runStyle {
                    gapEnd += 1
                }
                guard gapEnd > end, gapEnd < columns, changed[gapEnd], style(gapEnd) == runStyle else { break }
                end = gapEnd
            }
            result.append(CellSpan(row: row, column: x, width: end - x))
            x = end
        }
    }
}
