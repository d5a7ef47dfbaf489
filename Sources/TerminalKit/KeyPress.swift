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
    /// A click or a wheel turn, when the terminal reports mouse events and the config allows them.
    case mouse(MouseEvent)
}
