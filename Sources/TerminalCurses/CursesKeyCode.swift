import TerminalKit
import CNcursesw

/// The curses key codes the decoder knows, as plain values so tests need not import curses.
enum CursesKeyCode {
    static let codeYes = Int32(KEY_CODE_YES)
    static let up = Int32(KEY_UP)
    static let down = Int32(KEY_DOWN)
    static let left = Int32(KEY_LEFT)
    static let right = Int32(KEY_RIGHT)
    static let pageUp = Int32(KEY_PPAGE)
    static let pageDown = Int32(KEY_NPAGE)
    static let home = Int32(KEY_HOME)
    static let end = Int32(KEY_END)
    static let enter = Int32(KEY_ENTER)
    static let backspace = Int32(KEY_BACKSPACE)
    static let delete = Int32(KEY_DC)
    static let resize = Int32(KEY_RESIZE)
    static let backTab = Int32(KEY_BTAB)
    // The keypad's corners when the terminal reports them instead of Home/End/PgUp/PgDn.
    static let keypadUpperLeft = Int32(KEY_A1)
    static let keypadUpperRight = Int32(KEY_A3)
    static let keypadLowerLeft = Int32(KEY_C1)
    static let keypadLowerRight = Int32(KEY_C3)
}
