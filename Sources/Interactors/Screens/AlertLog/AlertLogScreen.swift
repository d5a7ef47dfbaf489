import Domain
import TerminalKit

/// The alert log (`L`): what fired this run, newest first, and the alerts that are set, one of them
/// selected; `d` deletes the selected alert. Opening it marks the highlighted rows as seen.
public struct AlertLogScreen: Sendable, Hashable {
    /// The selected alert, by id, so it stays selected when another alert goes.
    public private(set) var selectedID: Int?

    public init(selectedID: Int? = nil) {
        self.selectedID = selectedID
    }

    public enum Action: Sendable, Hashable {
        case up, down, delete, close
    }

    public func action(for key: KeyPress) -> Action? {
        switch key {
        case .character("k"), .up: .up
        case .character("j"), .down: .down
        case .character("d"), .delete: .delete
        case .escape, .character("q"), .character("L"): .close
        default: nil
        }
    }

    /// The index of the selected alert among `alerts`: the one chosen, else the first.
    public func selectedIndex(in alerts: [Alert]) -> Int? {
        guard !alerts.isEmpty else { return nil }
        return alerts.firstIndex { $0.id == selectedID } ?? 0
    }

    public mutating func update(_ action: Action, alerts: [Alert]) -> [ScreenRequest] {
        let index = selectedIndex(in: alerts)
        switch action {
        case .close:
            return [.close]
        case .up, .down:
            guard let index else { return [] }
            let moved = min(max(0, index + (action == .up ? -1 : 1)), alerts.count - 1)
            selectedID = alerts[moved].id
            return []
        case .delete:
            guard let index else { return [.say(.info, "No alerts to delete; ! on a row sets one")] }
            let alert = alerts[index]
            // The neighbour below takes the selection, else the one above.
            selectedID = alerts.indices.contains(index + 1) ? alerts[index + 1].id : (index > 0 ? alerts[index - 1].id : nil)
            return [.effect(.persistAlerts(.remove(id: alert.id)))]
        }
    }
}
