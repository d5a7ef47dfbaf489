import Domain
import TerminalKit

/// The keys of the watchlist table and of the overlays that only close (help, message log). The table's
/// keys are a data table, `KeyBindings` (the config can remap them); the screens in front of the table
/// map their own keys (`ListMenuScreen.action(for:)`, `DetailScreen.action(for:)`,
/// `TextPrompt.action(for:)`). The help overlay lists the bound keys (`HelpOverlay`).
public enum KeyMap {
    /// The action of `key` with the standard keys.
    public static func watchlistAction(for key: KeyPress) -> WatchlistAction? {
        KeyBindings.standard.action(for: key)
    }

    /// q closes an overlay instead of quitting: after reading help, q is what people press to leave it.
    /// The key that opened it, Esc and Enter close it too.
    public static func closesOverlay(_ key: KeyPress, openedWith opener: Character) -> Bool {
        closesOverlay(key, openedWith: [.character(opener)])
    }

    /// The same, for an overlay opened with any of `openers` (the keys bound to open it).
    public static func closesOverlay(_ key: KeyPress, openedWith openers: [KeyPress]) -> Bool {
        switch key {
        case .character("q"), .escape, .enter: true
        default: openers.contains(key)
        }
    }
}
