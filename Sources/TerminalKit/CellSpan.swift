/// Where a frame changed: consecutive cells of one row that share a style (`FrameDiff.spans`). The
/// cells themselves stay in the frame, so a renderer that reads them from there (curses, cell by cell)
/// makes no string for a change; `FrameDiff.run(of:in:)` gives the same stretch as text.
public struct CellSpan: Sendable, Hashable {
    public var row: Int
    public var column: Int
    /// Cells, one column each.
    public var width: Int

    public init(row: Int, column: Int, width: Int) {
        self.row = row
        self.column = column
        self.width = width
    }
}
