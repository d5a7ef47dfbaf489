import TerminalKit
import CNcursesw

/// What one `get_wch` call produced: a character, or a function key code (`KEY_CODE_YES`).
enum CursesInput: Sendable, Hashable {
    case character(UInt32)
    case keyCode(Int32)
    /// What `getmouse` said after KEY_MOUSE.
    case mouse(MouseEvent)

    /// Nil for `ERR` (nothing left to read) or any status curses does not document.
    init?(status: Int32, value: UInt32) {
        switch status {
        case OK: self = .character(value)
        case CursesKeyCode.codeYes: self = .keyCode(Int32(bitPattern: value))
        default: return nil
        }
    }
}
