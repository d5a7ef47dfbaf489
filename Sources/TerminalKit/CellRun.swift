/// Cells to write in one go: consecutive cells of one row that share a style.
public struct CellRun: Sendable, Hashable {
    public var row: Int
    public var column: Int
    /// One character per cell. The views write cells with `TerminalText.cells`, which never puts a mark
    /// that would join the cell before into a cell of its own, so for their frames `text.count` is the
    /// run's width; the curses screen draws from the cells themselves (`FrameDiff.spans`) in any case.
    public var text: String
    public var style: Style

    public init(row: Int, column: Int, text: String, style: Style) {
        self.row = row
        self.column = column
        self.text = text
        self.style = style
    }

    public var width: Int { text.count }
}
