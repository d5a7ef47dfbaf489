import Domain
import TerminalKit

/// The small dialog `!` opens on a row: one line to type the alert into (see `AlertInput`), the row's
/// price for reference, and after a refused Enter the reason, with what was typed kept for fixing.
public struct AlertDialog: Sendable, Hashable {
    public let context: AlertInput.Context
    public private(set) var prompt: TextPrompt

    public init(context: AlertInput.Context, prompt: TextPrompt = TextPrompt(limit: 80)) {
        self.context = context
        self.prompt = prompt
    }

    public func action(for key: KeyPress) -> TextPrompt.Action? {
        TextPrompt.action(for: key)
    }

    /// Enter saves a valid alert and closes; a refused one stays with the reason.
    public mutating func update(_ action: TextPrompt.Action) -> [ScreenRequest] {
        switch action {
        case .cancel:
            return [.close]
        case .type, .backspace:
            prompt.edit(action)
            return []
        case .submit:
            switch AlertInput.parse(prompt.text, in: context) {
            case .success(let draft):
                return [.close, .effect(.persistAlerts(.add(draft)))]
            case .failure(let refusal):
                prompt = prompt.refused(refusal.description)
                return []
            }
        }
    }
}
