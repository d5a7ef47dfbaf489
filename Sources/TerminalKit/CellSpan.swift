/// Where a frame changed: consecutive cells of one row that share a style (`FrameDiff.spans`). The
/// cells themselves stay in the frame, so a renderer that reads them from there (curses, cell by cell)
/// makes no string for a change; `FrameDiff.run(of:in:)` gives the same stretch as text.
public struct CellSpan: Sendable, Hashable {
    public let row: Int
    public let column: Int
    /// Cells, one column each; never negative.
    public let width: Int

    public init(row: Int, column: Int, width: Int) {
        self.row = row
        self.column = column
        self.width = max(0, width)
    }
}
