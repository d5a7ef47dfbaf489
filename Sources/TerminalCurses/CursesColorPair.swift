/// A curses color pair's colors; -1 is the terminal's default color. Curses color numbers: palette
/// entries, or 0xRRGGBB on a direct-color terminal (`init_extended_pair` takes either).
struct CursesColorPair: Sendable, Hashable {
    var foreground: Int32
    var background: Int32
}
