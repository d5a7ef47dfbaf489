import TerminalKit

/// One screen row as an earlier frame drew it, with the values it was drawn from and what drawing it
/// returned: put back as it was while those values are equal, drawn anew when one changed.
///
/// For the header and the footer, which are worked out from a few values that change a few times a
/// minute but cost as much to lay out as the rest of a live frame (each tries its variants, longest
/// first, as styled text: 0.2 ms a frame for the footer alone at 30 frames a second).
struct KeptRow<Key: Equatable & Sendable, Value: Sendable>: Sendable {
    private var key: Key?
    private var row: [UInt64] = []
    private var value: Value?

    init() {}

    /// Draws row `row` of `buffer` with `draw`, or puts back what it drew for the same `key` in a frame
    /// as wide. `draw` must write only that row, and the row must be blank before (a new frame's is).
    mutating func draw(
        into buffer: inout ScreenBuffer, row index: Int, key: Key, _ draw: (inout ScreenBuffer) -> Value
    ) -> Value {
        if let value, self.key == key, row.count == buffer.size.columns {
            buffer.setRowCodes(index, to: row)
            return value
        }
        let drawn = draw(&buffer)
        if let codes = buffer.rowCodes(index) {
            // A row holding a character of several scalars has no portable codes: it is drawn every time.
            (self.key, row, value) = (key, Array(codes), drawn)
        } else {
            (self.key, row, value) = (nil, [], nil)
        }
        return drawn
    }
}
