/// The wide characters curses gets for one cell.
enum CursesGlyph {
    /// What curses can hold in one cchar_t: one spacing character plus combining ones (CCHARW_MAX = 5).
    static let maximumScalars = 5
    static let replacement: [UInt32] = [UInt32(UInt8(ascii: "?"))]

    /// A cell is one column wide: a character the terminal would draw wider or not at all (an emoji,
    /// a control, anything the locale cannot show, where `width` answers -1) becomes "?" so the grid
    /// never shifts. `width` is `wcwidth` in production.
    /// `scalars(for:width:)` of a character of one scalar, without an array: what almost every cell holds.
    static func scalar(_ value: UInt32, width: (UInt32) -> Int32) -> UInt32 {
        width(value) == 1 ? value : replacement[0]
    }

    static func scalars(for character: Character, width: (UInt32) -> Int32) -> [UInt32] {
        let values = character.unicodeScalars.map(\.value)
        guard let first = values.first, values.count <= maximumScalars, width(first) == 1 else { return replacement }
        for combining in values.dropFirst() where width(combining) != 0 {
            return replacement
        }
        return values
    }
}
