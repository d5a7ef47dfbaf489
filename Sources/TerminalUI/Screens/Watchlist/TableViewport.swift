/// The table's scroll position, kept by whoever draws frames, between them (ratatui's `TableState`).
/// Each frame moves it as little as needed to keep the selected row on screen at that frame's height,
/// so scrolling is decided where the height is known, and nothing about it flows back into the app state.
public struct TableViewport: Sendable, Hashable {
    /// The first row drawn.
    public var offset: Int

    public init(offset: Int = 0) {
        self.offset = offset
    }

    /// The first row to draw for `rowCount` rows in `height`, with `selected` visible.
    mutating func scroll(toShow selected: Int?, rowCount: Int, height: Int) -> Int {
        var first = min(max(0, offset), rowCount)
        if let selected, (0..<rowCount).contains(selected), height > 0 {
            if selected >= first + height { first = selected - height + 1 }
            if selected < first { first = selected }
            // Rows freed at the bottom (a taller terminal, removed rows) are filled from above.
            first = max(0, min(first, rowCount - height))
        }
        offset = first
        return first
    }
}
