/// How many colors the terminal can show, decided once at start from what it says about itself.
public enum ColorDepth: String, Sendable, Hashable, CaseIterable {
    /// The eight ANSI colors.
    case basic
    /// xterm's 256-color palette.
    case indexed256
    /// Any RGB color: either curses speaks direct color (a `*-direct` terminfo type), or the terminal
    /// says so (`COLORTERM`) and curses may redefine palette entries (`can_change_color`).
    case trueColor

    /// `COLORTERM=truecolor` or `24bit` is how terminals announce RGB support (there is no terminfo
    /// flag most types carry); `colors` is curses' `COLORS` for the terminal type. Without a way for
    /// curses to produce an RGB color (direct color, or redefinable palette entries), truecolor themes
    /// are drawn with the nearest of the 256 colors.
    public static func detect(colorTerm: String?, colors: Int, canChangeColor: Bool) -> ColorDepth {
        if colors >= directColorThreshold { return .trueColor }
        let announcesTrueColor = ["truecolor", "24bit"].contains(colorTerm?.lowercased() ?? "")
        if colors >= 256 { return announcesTrueColor && canChangeColor ? .trueColor : .indexed256 }
        return .basic
    }

    /// A terminfo type with this many colors numbers them as 0xRRGGBB (ncurses' direct-color types).
    public static let directColorThreshold = 1 << 24
}
