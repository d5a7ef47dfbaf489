import TerminalKit
import Interactors

/// The lists menu (`W`): every list with its number (the key that shows it) and size, the highlighted
/// one in reverse video, and the keys that act on it.
struct ListMenuOverlay {
    let menu: ListMenuScreen
    let state: WatchlistViewState
    let palette: Palette

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        let highlighted: Int
        switch menu.step {
        case .naming(.rename(let name), _), .confirmingDelete(let name):
            highlighted = state.listNames.firstIndex(of: name) ?? menu.selected
        case .choosing, .naming(.create, _):
            highlighted = menu.selected
        }
        let nameWidth = min(24, state.listNames.map { TerminalText.width(TerminalText.sanitize($0)) }.max() ?? 0)
        var lines: [StyledText] = []
        for (index, name) in state.listNames.enumerated() {
            let size = index < state.listSizes.count ? state.listSizes[index] : 0
            let marker = index == state.currentList ? "▸ " : "  "
            let number = index < 9 ? "\(index + 1)" : " "
            var line = StyledText(marker + number + "  ", style: index == highlighted ? palette.selectedListKey : palette.overlayKey)
            let shown = TerminalText.truncate(TerminalText.sanitize(name), toWidth: 24)
            line.append(shown + String(repeating: " ", count: max(0, nameWidth - TerminalText.width(shown))), style: index == highlighted ? palette.selectedList : .plain)
            line.append("  " + (size == 1 ? "1 symbol" : "\(size) symbols"), style: index == highlighted ? palette.selectedList : palette.muted)
            lines.append(line)
        }
        lines.append(StyledText())
        var keys = StyledText()
        for (key, label) in [("Enter", "show"), ("n", "new"), ("r", "rename"), ("d", "delete"), ("J K", "move"), ("u", "undo")] {
            if !keys.isEmpty { keys.append("  ") }
            keys.append(key, style: palette.overlayKey)
            keys.append(" " + label)
        }
        lines.append(keys)
        OverlayBox(title: "Lists", closingKey: "W", palette: palette).draw(lines, into: &buffer, rows: area)
    }
}
