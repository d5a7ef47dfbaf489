/// What the terminal can do with colors, decided once at start.
enum CursesColorMode: Sendable, Hashable {
    /// No colors: `--no-color`, NO_COLOR, or a terminal without colors.
    case off
    /// `use_default_colors` worked: -1 keeps the terminal's own foreground or background.
    case withDefaultColors
    /// Colors without "default": nil falls back to white on black.
    case withoutDefaultColors
}
