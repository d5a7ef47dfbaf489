/// Where the last frame put what a click can hit: the table's rows and the lists' tabs. The view
/// fills it in while drawing (`WatchlistScreen.render(…, layout:)`); `MouseMapping` reads it.
public struct WatchlistLayout: Sendable, Hashable {
    /// Screen rows of the table's rows; empty when no table is drawn (a screen is in front).
    public var tableRows: Range<Int>
    /// The index of the row drawn on `tableRows.lowerBound`.
    public var firstRow: Int
    /// How many rows the table has in all.
    public var rowCount: Int
    /// The header row's tabs: columns and the list each shows.
    public var tabs: [Tab]

    public struct Tab: Sendable, Hashable {
        public var columns: Range<Int>
        public var list: Int

        public init(columns: Range<Int>, list: Int) {
            self.columns = columns
            self.list = list
        }
    }

    /// The header's row.
    public static let headerRow = 0

    public init(tableRows: Range<Int> = 0..<0, firstRow: Int = 0, rowCount: Int = 0, tabs: [Tab] = []) {
        self.tableRows = tableRows
        self.firstRow = firstRow
        self.rowCount = rowCount
        self.tabs = tabs
    }
}
