import TerminalKit

/// The detail screen (Enter on a row): one symbol across every broker. What it shows is read from the
/// stores while rendering (`AppState.detail`); the screen itself only knows which symbol.
public struct DetailScreen: Sendable, Hashable {
    public let symbol: String

    public init(symbol: String) {
        self.symbol = symbol
    }

    public enum Action: Sendable, Hashable {
        case close
    }

    /// Like an overlay: Esc, Enter or q goes back to the list, where the same row is selected.
    public func action(for key: KeyPress) -> Action? {
        switch key {
        case .escape, .enter, .character("q"): .close
        default: nil
        }
    }

    public mutating func update(_ action: Action) -> [ScreenRequest] {
        switch action {
        case .close: [.close]
        }
    }
}
