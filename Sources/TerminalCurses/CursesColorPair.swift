/// A curses color pair's colors; -1 is the terminal's default color.
struct CursesColorPair: Sendable, Hashable {
    var foreground: Int16
    var background: Int16
}
