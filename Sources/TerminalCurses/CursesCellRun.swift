import TerminalUI

/// Cells that changed, side by side on one row and in one style: drawn with one curses call.
struct CursesCellRun: Sendable, Hashable {
    var row: Int
    var column: Int
    var style: Style
    var characters: [Character]
}
