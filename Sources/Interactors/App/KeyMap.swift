import Domain
import TerminalKit
import TextSafety

/// Which key does what, per input mode: `AppState.update` asks it for every key, so the mode it reads
/// is the state's own. The help overlay lists the same keys (`HelpOverlay`).
public enum KeyMap {
    public static func action(for key: KeyPress, mode: InputMode) -> WatchlistAction? {
        if key == .control("c") { return .quit }
        switch mode {
        case .normal: return normalAction(for: key)
        case .adding: return addingAction(for: key)
        case .help: return helpAction(for: key)
        case .messageLog: return messageLogAction(for: key)
        case .listMenu: return listMenuAction(for: key)
        // Naming a list types like the add prompt.
        case .namingList: return addingAction(for: key)
        case .confirmingDelete: return confirmAction(for: key)
        case .detail: return detailAction(for: key)
        }
    }

    private static func normalAction(for key: KeyPress) -> WatchlistAction? {
        switch key {
        case .character("a"), .character("+"): .beginAdd
        case .character("d"), .delete: .removeSelected
        case .character("u"): .undoRemove
        case .character("j"), .down: .moveDown
        case .character("k"), .up: .moveUp
        case .pageUp: .pageUp
        case .pageDown: .pageDown
        case .character("g"), .home: .moveToTop
        case .character("G"), .end: .moveToBottom
        case .character("s"): .cycleSort
        case .character("A"): .toggleAccounts
        case .character("?"): .toggleHelp
        case .character("m"): .toggleMessageLog
        case .enter: .openDetail
        case .tab: .nextList
        case .backTab: .previousList
        case .character("W"): .openListMenu
        case .character(let digit) where ("1"..."9").contains(digit): .showList(Int(String(digit))! - 1)
        case .character("q"): .quit
        case .escape: .dismiss
        default: nil
        }
    }

    private static func addingAction(for key: KeyPress) -> WatchlistAction? {
        switch key {
        case .enter: return .submitInput
        case .escape: return .cancelInput
        // Terminals send DEL or BS for the backspace key when curses does not translate it.
        case .backspace, .control("h"), .character("\u{7F}"), .character("\u{08}"): return .inputBackspace
        case .character("\r"), .character("\n"), .character("\r\n"): return .submitInput
        case .character(let character) where isPrintable(character): return .inputCharacter(character)
        default: return nil
        }
    }

    /// q closes the overlay instead of quitting: after reading help, q is what people press to leave it.
    private static func helpAction(for key: KeyPress) -> WatchlistAction? {
        switch key {
        case .character("?"), .character("q"), .escape, .enter: .toggleHelp
        default: nil
        }
    }

    /// Like help: the key that opened it, q, Esc or Enter closes it.
    private static func messageLogAction(for key: KeyPress) -> WatchlistAction? {
        switch key {
        case .character("m"), .character("q"), .escape, .enter: .toggleMessageLog
        default: nil
        }
    }

    /// What may be typed into a prompt: no controls, no escape sequences, no bidi controls.
    private static func isPrintable(_ character: Character) -> Bool {
        !character.unicodeScalars.contains(where: VisibleText.isSteering)
    }
}
