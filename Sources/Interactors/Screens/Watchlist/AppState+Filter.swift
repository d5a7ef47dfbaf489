import Foundation
import TerminalKit

/// The `/` filter and the `T` theme switch: what the table shows and how, not what it holds.
extension AppState {
    /// The shown list's filter, nil when it shows every row.
    public var currentFilter: String? {
        filters[currentListName]
    }

    /// Opens the filter prompt with the list's filter, to be changed in place.
    mutating func beginFilter() {
        // The prompt takes the status line, as the add prompt does.
        message = nil
        front = .filtering(TextPrompt(text: currentFilter ?? "", limit: 40))
    }

    /// A key in the filter prompt: typing filters at once, Enter keeps the filter, Esc clears it. ↑ and
    /// ↓ move the selection among the rows that match, so Enter then opens the one wanted.
    mutating func filterKey(_ key: KeyPress, prompt: TextPrompt, at now: Date) -> [AppEffect] {
        switch key {
        case .up: moveSelection(by: -1); return []
        case .down: moveSelection(by: 1); return []
        default: break
        }
        guard let action = TextPrompt.action(for: key) else { return [] }
        var prompt = prompt
        switch action {
        case .submit:
            front = .watchlist
            if let filter = currentFilter {
                let shown = slots.count
                say(.info, "Filter \(filter): \(shown == 1 ? "1 row" : "\(shown) rows") · \(keyLabel("dismiss")) clears it", at: now)
            }
        case .cancel:
            front = .watchlist
            clearFilter(at: now)
        case .type, .backspace:
            prompt.edit(action)
            front = .filtering(prompt)
            setFilter(prompt.text)
        }
        return []
    }

    /// Shows every row of the list again, keeping the selected row selected.
    mutating func clearFilter(at now: Date) {
        guard currentFilter != nil else { return }
        setFilter("")
        say(.info, "Filter cleared", at: now)
    }

    private mutating func setFilter(_ text: String) {
        filters[currentListName] = text.allSatisfy { $0 == " " } ? nil : text
        rebuildRows()
    }

    /// The next theme, said on the status line so the user knows its name.
    mutating func cycleTheme(at now: Date) {
        theme = theme.next
        say(.info, "Theme: \(theme.rawValue) · \(keyLabel("theme")) for the next one", at: now)
    }
}
