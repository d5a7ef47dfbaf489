import TerminalKit

/// Turns what `get_wch` returned into a `KeyPress`; nil for keys the app has no use for.
enum CursesKeyDecoder {
    static func decode(_ input: CursesInput) -> KeyPress? {
        switch input {
        case .character(let value): decodeCharacter(value)
        case .keyCode(let code): decodeKeyCode(code)
        case .mouse(let event): .mouse(event)
        }
    }

    private static func decodeCharacter(_ value: UInt32) -> KeyPress? {
        switch value {
        // nonl() keeps Enter as CR; LF arrives from Ctrl-J and some terminals.
        case 13, 10: return .enter
        case 9: return .tab
        case 27: return .escape
        // Terminals send DEL or BS for Backspace depending on their settings.
        case 127, 8: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(value) + 0x60)))
        default: break
        }
        guard let scalar = Unicode.Scalar(value) else { return nil }
        // NUL, the remaining C0 controls and C1 controls would let input steer the terminal when echoed.
        if scalar.properties.generalCategory == .control { return nil }
        return .character(Character(scalar))
    }

    private static func decodeKeyCode(_ code: Int32) -> KeyPress? {
        switch code {
        case CursesKeyCode.up: .up
        case CursesKeyCode.down: .down
        case CursesKeyCode.left: .left
        case CursesKeyCode.right: .right
        case CursesKeyCode.pageUp, CursesKeyCode.keypadUpperRight: .pageUp
        case CursesKeyCode.pageDown, CursesKeyCode.keypadLowerRight: .pageDown
        case CursesKeyCode.home, CursesKeyCode.keypadUpperLeft: .home
        case CursesKeyCode.end, CursesKeyCode.keypadLowerLeft: .end
        case CursesKeyCode.enter: .enter
        case CursesKeyCode.backspace: .backspace
        case CursesKeyCode.delete: .delete
        case CursesKeyCode.resize: .resize
        case CursesKeyCode.backTab: .backTab
        default: nil
        }
    }
}
