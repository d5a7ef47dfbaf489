import TerminalKit

/// The wide characters curses gets for one cell.
enum CursesGlyph {
    /// What curses can hold in one cchar_t: one spacing character plus combining ones (CCHARW_MAX = 5).
    static let maximumScalars = 5
    static let replacement: [UInt32] = [UInt32(UInt8(ascii: "?"))]

    /// What curses gets for one cell of a frame: one scalar (almost every cell, no array made) or the
    /// scalars of a character of several.
    enum Cell: Equatable {
        case scalar(UInt32)
        case scalars([UInt32])
    }

    /// The cell `code` of `frame` (`ScreenBuffer.withCodes`), one cell whatever its neighbours hold: a
    /// combining mark in a cell of its own is a cell of its own ("?"), not part of the one before.
    static func cell(code: UInt64, in frame: ScreenBuffer, width: (UInt32) -> Int32) -> Cell {
        guard let single = CellCode.scalar(of: code) else {
            return .scalars(scalars(for: frame.character(of: code), width: width))
        }
        // Printable ASCII needs no width.
        let value = single.value
        return .scalar(value >= 0x20 && value < 0x7F ? value : scalar(value, width: width))
    }

    /// `scalars(for:width:)` of a character of one scalar, without an array.
    static func scalar(_ value: UInt32, width: (UInt32) -> Int32) -> UInt32 {
        width(value) == 1 ? value : replacement[0]
    }

    /// A cell is one column wide: a character the terminal would draw wider or not at all (an emoji,
    /// a control, anything the locale cannot show, where `width` answers -1) becomes "?" so the grid
    /// never shifts. `width` is `wcwidth` in production.
    static func scalars(for character: Character, width: (UInt32) -> Int32) -> [UInt32] {
        let values = character.unicodeScalars.map(\.value)
        guard let first = values.first, values.count <= maximumScalars, width(first) == 1 else { return replacement }
        for combining in values.dropFirst() where width(combining) != 0 {
            return replacement
        }
        return values
    }
}
