import TerminalKit
import TextSafety

/// A one-line prompt on the status line: what has been typed and, after a refused submit, why. The add
/// prompt and the list-name prompt type alike; what Enter does is the owning screen's business.
public struct TextPrompt: Sendable, Hashable {
    public private(set) var text: String
    /// Why the last submit was refused; typing clears it.
    public private(set) var error: String?
    /// Longer input is a paste gone wrong, not a list of symbols or a name.
    public let limit: Int

    public init(text: String = "", error: String? = nil, limit: Int = 200) {
        self.text = text
        self.error = error
        self.limit = limit
    }

    public enum Action: Sendable, Hashable {
        case type(Character)
        case backspace
        case submit
        case cancel
    }

    public static func action(for key: KeyPress) -> Action? {
        switch key {
        case .enter: return .submit
        case .escape: return .cancel
        // Terminals send DEL or BS for the backspace key when curses does not translate it.
        case .backspace, .control("h"), .character("\u{7F}"), .character("\u{08}"): return .backspace
        case .character("\r"), .character("\n"), .character("\r\n"): return .submit
        case .character(let character) where isPrintable(character): return .type(character)
        default: return nil
        }
    }

    /// Applies an editing action; `submit` and `cancel` are the owner's to handle.
    public mutating func edit(_ action: Action) {
        switch action {
        case .type(let character):
            guard text.count < limit else { return }
            text.append(character)
            error = nil
        case .backspace:
            text.removeLast(text.isEmpty ? 0 : 1)
            error = nil
        case .submit, .cancel:
            break
        }
    }

    /// The prompt kept open with what was typed (or what should be fixed) and why it was refused.
    public func refused(_ reason: String, keeping kept: String? = nil) -> TextPrompt {
        TextPrompt(text: kept ?? text, error: reason, limit: limit)
    }

    /// What may be typed into a prompt: no controls, no escape sequences, no bidi controls.
    static func isPrintable(_ character: Character) -> Bool {
        !character.unicodeScalars.contains(where: VisibleText.isSteering)
    }
}
