import TerminalKit

/// Keys by the names the config's `keys` section and the help overlay use: a character stands for
/// itself ("q", "/", "G"); other keys have names ("Down", "PgUp", "Enter", "Esc", "Tab", "Shift-Tab",
/// "Delete", "Space", "Ctrl-X"), matched without regard to case.
public enum KeyName {
    private static let named: [(names: [String], key: KeyPress)] = [
        (["Up"], .up), (["Down"], .down), (["Left"], .left), (["Right"], .right),
        (["PgUp", "PageUp"], .pageUp), (["PgDn", "PageDown"], .pageDown), (["Home"], .home), (["End"], .end),
        (["Enter", "Return"], .enter), (["Esc", "Escape"], .escape), (["Tab"], .tab),
        (["Shift-Tab", "BackTab"], .backTab), (["Delete", "Del"], .delete), (["Backspace"], .backspace),
        (["Space"], .character(" ")),
    ]

    /// Ctrl plus these letters arrive as other keys (Tab, Enter, Backspace), or never reach the app
    /// (Ctrl-C quits, Ctrl-Z suspends, Ctrl-S and Ctrl-Q are the terminal's flow control).
    private static let unavailableControls: Set<Character> = ["c", "h", "i", "j", "m", "q", "s", "z"]

    /// What a config may write, for error messages.
    public static let accepted = "a single character such as \"x\" or \"/\", or one of "
        + named.map { $0.names[0] }.joined(separator: ", ") + ", Ctrl-A … Ctrl-Y"

    /// Why `text` names no key the watchlist can receive, or the key.
    public static func parse(_ text: String) -> Result<KeyPress, KeyNameError> {
        if text.count == 1, let character = text.first {
            guard !character.isWhitespace, !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return .failure(.unknown(text))
            }
            return .success(.character(character))
        }
        let lower = text.lowercased()
        if let match = named.first(where: { $0.names.contains { $0.lowercased() == lower } }) {
            return .success(match.key)
        }
        for prefix in ["ctrl-", "ctrl+", "c-"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            guard rest.count == 1, let letter = rest.first, letter.isASCII, letter.isLetter else { break }
            guard !unavailableControls.contains(letter) else { return .failure(.unavailable(text)) }
            return .success(.control(letter))
        }
        return .failure(.unknown(text))
    }

    /// How the help overlay and footer write `key`.
    public static func display(_ key: KeyPress) -> String {
        switch key {
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .control(let letter): "Ctrl-" + letter.uppercased()
        case .resize: "resize"
        case .mouse: "mouse"
        }
    }
}

/// Why a key name in the config is not a key.
public enum KeyNameError: Error, Sendable, Hashable {
    case unknown(String)
    /// A key the terminal or the app keeps for itself.
    case unavailable(String)
}
