/// A decoded key, independent of curses.
public enum KeyPress: Sendable, Hashable {
    case character(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab
    /// Shift-Tab.
    case backTab
    /// Ctrl plus a letter, lower-cased: `.control("c")` is Ctrl-C.
    case control(Character)
    case resize
}
