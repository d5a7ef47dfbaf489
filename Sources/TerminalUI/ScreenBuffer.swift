/// A frame: a grid of cells that views draw into and the renderer diffs.
public struct ScreenBuffer: Sendable, Hashable {
    public let size: ScreenSize
    public private(set) var cells: [Cell]
    /// Where the terminal cursor should be shown (the add prompt), or nil to hide it.
    public var cursor: (column: Int, row: Int)? {
        get { cursorPosition.map { ($0.column, $0.row) } }
        set { cursorPosition = newValue.map { CursorPosition(column: $0.column, row: $0.row) } }
    }
    private var cursorPosition: CursorPosition?

    private struct CursorPosition: Sendable, Hashable {
        var column: Int
        var row: Int
    }

    public init(size: ScreenSize, fill: Cell = .blank) {
        self.size = size
        self.cells = Array(repeating: fill, count: max(0, size.columns) * max(0, size.rows))
    }

    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * size.columns + column] }
        set {
            guard column >= 0, column < size.columns, row >= 0, row < size.rows else { return }
            cells[row * size.columns + column] = newValue
        }
    }

    /// Writes `text` from (column, row), clipped to `maxWidth` and the screen; returns the column after it.
    /// Every character takes exactly one cell (see `TerminalText.cells`): controls and wide characters
    /// become U+FFFD and zero-width ones are skipped, so nothing from outside can steer the terminal
    /// or shift a column.
    @discardableResult
    public mutating func write(_ text: String, column: Int, row: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        write(cells: TerminalText.cells(text), column: column, row: row, style: style, maxWidth: maxWidth)
    }

    /// Writes characters already made one cell each by `TerminalText.cells`.
    @discardableResult
    mutating func write(cells text: [Character], column: Int, row: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard row >= 0, row < size.rows else { return column }
        let limit = min(size.columns, column + max(0, maxWidth ?? size.columns))
        var x = column
        for character in text {
            if x >= limit { break }
            if x >= 0 {
                cells[row * size.columns + x] = Cell(character, style: style)
            }
            x += 1
        }
        return x
    }

    /// Changes the style of the cells in one row range, keeping their characters.
    mutating func restyle(row: Int, from column: Int = 0, to end: Int? = nil, _ change: (inout Style) -> Void) {
        guard row >= 0, row < size.rows else { return }
        let start = max(0, column)
        let stop = min(size.columns, end ?? size.columns)
        guard start < stop else { return }
        for x in start..<stop {
            change(&cells[row * size.columns + x].style)
        }
    }

    /// Fills a row range of one line with `style` (for selection bars and headers).
    public mutating func fill(row: Int, from column: Int = 0, to end: Int? = nil, style: Style) {
        restyle(row: row, from: column, to: end) { $0 = style }
    }

    /// The frame as plain text lines, trailing spaces kept: what snapshot tests compare.
    public var lines: [String] {
        (0..<max(0, size.rows)).map { row in
            String(cells[(row * size.columns)..<((row + 1) * size.columns)].map(\.character))
        }
    }

    public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
        lhs.size == rhs.size && lhs.cells == rhs.cells && lhs.cursorPosition == rhs.cursorPosition
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        hasher.combine(cells)
        hasher.combine(cursorPosition)
    }
}
