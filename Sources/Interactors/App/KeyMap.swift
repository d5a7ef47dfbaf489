import Domain
import TerminalKit

/// The keys of the watchlist table and of the overlays that only close (help, message log). The screens
/// in front of the table map their own keys (`ListMenuScreen.action(for:)`, `DetailScreen.action(for:)`,
/// `TextPrompt.action(for:)`). The help overlay lists the same keys (`HelpOverlay`).
public enum KeyMap {
    public static func watchlistAction(for key: KeyPress) -> WatchlistAction? {
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
        case .character("r"): .reverseSort
        case .character("c"): .toggleCrossBroker
        case .character("A"): .toggleAccounts
        case .character("?"): .toggleHelp
        case .character("m"): .toggleMessageLog
        case .enter: .openDetail
        case .tab: .nextList
        case .backTab: .previousList
        case .character("W"): .openListMenu
        case .character("P"): .openPositions
        case .character("O"): .openOrders
        case .character("B"): .trade(.buy)
        case .character("S"): .trade(.sell)
        case .character(let digit) where ("1"..."9").contains(digit): .showList(Int(digit.asciiValue ?? 49) - 49)
        case .character("q"): .quit
        case .escape: .dismiss
        default: nil
        }
    }

    /// q closes an overlay instead of quitting: after reading help, q is what people press to leave it.
    /// The key that opened it, Esc and Enter close it too.
    public static func closesOverlay(_ key: KeyPress, openedWith opener: Character) -> Bool {
        switch key {
        case .character(opener), .character("q"), .escape, .enter: true
        default: false
        }
    }
}
