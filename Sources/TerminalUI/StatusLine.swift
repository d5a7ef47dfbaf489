import TerminalKit
import Foundation
import Interactors

/// The rows above the footer: the current message, or the add prompt while adding. A message longer
/// than a row wraps onto up to `maximumRows` rows (the table gives them up), so the part that explains,
/// such as where a corrupt file went, is never cut; the message log (`m`) keeps it in full. An info
/// message fades after `StatusMessage.infoLifetime`.
struct StatusLine {
    let state: WatchlistViewState
    let now: Date
    let palette: Palette

    static let maximumRows = 3

    /// How many rows the status line takes at `columns` wide, given at most `available`.
    static func height(of state: WatchlistViewState, columns: Int, now: Date, available: Int) -> Int {
        let limit = max(1, min(maximumRows, available))
        return min(limit, StatusLine(state: state, now: now, palette: plainPalette).lines(columns: columns).count)
    }

    /// Counting rows needs no colors: made once, where each frame made its own (a twentieth of the
    /// UI thread's time while a market streams).
    private static let plainPalette = Palette(RenderOptions())

    func draw(into buffer: inout ScreenBuffer, rows: Range<Int>) {
        let lines = lines(columns: buffer.size.columns)
        guard !rows.isEmpty else { return }
        var shown = Array(lines.prefix(rows.count))
        if lines.count > rows.count, let last = shown.popLast() {
            // More than fits: the log has the whole text.
            shown.append(last.truncated(toWidth: max(0, last.width - 1)))
        }
        for (line, row) in zip(shown, rows) {
            line.draw(into: &buffer, column: 1, row: row, maxWidth: buffer.size.columns - 2)
        }
        if let prompt, let row = rows.first {
            placeCursor(after: prompt.text, label: prompt.label, into: &buffer, row: row)
        }
    }

    /// The prompt the mode shows, if any: its label, what was typed, why it was refused, and what Enter does.
    private var prompt: (label: String, text: String, error: String?, enter: String, escape: String)? {
        switch state.front {
        case .adding(let prompt):
            ("Add symbols: ", prompt.text, prompt.error, "add", "cancel")
        case .filtering(let prompt):
            ("Filter: ", prompt.text, prompt.error, "keep", "clear")
        case .alertDialog(let dialog):
            ("Alert on \(TerminalText.sanitize(dialog.context.symbol)): ", dialog.prompt.text, dialog.prompt.error, "set", "cancel")
        case .listMenu(let menu):
            switch menu.step {
            case .naming(.create, let prompt):
                ("New list: ", prompt.text, prompt.error, "create", "cancel")
            case .naming(.rename(let old), let prompt):
                ("Rename \(TerminalText.truncate(TerminalText.sanitize(old), toWidth: 24)) to: ", prompt.text, prompt.error, "rename", "cancel")
            case .choosing, .confirmingDelete:
                nil
            }
        default:
            nil
        }
    }

    /// Every line the status line would show with unlimited rows.
    private func lines(columns: Int) -> [StyledText] {
        let width = max(1, columns - 2)
        if let prompt {
            return promptLines(
                label: prompt.label, text: prompt.text, error: prompt.error, enter: prompt.enter, escape: prompt.escape, width: width)
        }
        if case .listMenu(let menu) = state.front, case .confirmingDelete(let name) = menu.step {
            let size = state.listNames.firstIndex(of: name).flatMap { $0 < state.listSizes.count ? state.listSizes[$0] : nil } ?? 0
            var line = StyledText("Delete list \(name) and its \(size == 1 ? "1 symbol" : "\(size) symbols")? ", style: palette.message(.warning))
            line.append("y", style: palette.hintKey)
            line.append(" delete · ", style: palette.hintLabel)
            line.append("n", style: palette.hintKey)
            line.append(" keep", style: palette.hintLabel)
            return [line]
        }
        if case .orders(let screen) = state.front, let row = screen.confirmingCancel {
            var line = StyledText("Cancel \(TerminalText.sanitize(OrderTicket.describe(row.order.request)))? ", style: palette.message(.warning))
            line.append("y", style: palette.hintKey)
            line.append(" cancel it · ", style: palette.hintLabel)
            line.append("n", style: palette.hintKey)
            line.append(" keep it", style: palette.hintLabel)
            return [line]
        }
        guard let message = state.message, message.isShown(at: now) else { return [StyledText()] }
        let style = palette.message(message.kind)
        let wrapped = TerminalText.wrap(TerminalText.cells(TerminalText.sanitize(message.text)), toWidth: width)
        return wrapped.isEmpty ? [StyledText()] : wrapped.map { line in
            var text = StyledText()
            text.append(cells: line, style: style)
            return text
        }
    }

    /// "Add symbols: <typed>  <error>    Enter add · Esc cancel". An error that does not fit beside the
    /// typed text goes on the rows below, whole, rather than losing its reason.
    private func promptLines(label: String, text: String, error: String?, enter: String, escape: String, width: Int) -> [StyledText] {
        var first = StyledText(label, style: palette.promptLabel)
        let typed = TerminalText.cells(TerminalText.sanitize(text))
        let room = max(0, width - first.width - 1)
        let shownTyped = typed.count <= room ? typed : [TerminalText.ellipsis] + typed.suffix(max(0, room - 1))
        first.append(cells: shownTyped, style: .plain)

        var hint = StyledText("Enter", style: palette.hintKey)
        hint.append(" \(enter) · ", style: palette.hintLabel)
        hint.append("Esc", style: palette.hintKey)
        hint.append(" " + escape, style: palette.hintLabel)

        guard let error, !error.isEmpty else {
            return [Self.padded(first, then: hint, width: width)]
        }
        let message = StyledText(error, style: palette.promptError)
        if first.width + 2 + message.width + 3 + hint.width <= width {
            return [Self.padded(first + StyledText("  ") + message, then: hint, width: width)]
        }
        if first.width + 2 + message.width <= width {
            return [first + StyledText("  ") + message]
        }
        let wrapped = TerminalText.wrap(TerminalText.cells(TerminalText.sanitize(error)), toWidth: width)
        return [Self.padded(first, then: hint, width: width)] + wrapped.map { line in
            var text = StyledText()
            text.append(cells: line, style: palette.promptError)
            return text
        }
    }

    /// `left`, then `right` against the right edge when both fit.
    private static func padded(_ left: StyledText, then right: StyledText, width: Int) -> StyledText {
        let gap = width - left.width - right.width
        guard gap >= 2 else { return left }
        return left + StyledText(String(repeating: " ", count: gap)) + right
    }

    /// The cursor sits after the typed text (a long input scrolls, so its tail and the cursor stay visible).
    private func placeCursor(after text: String, label: String, into buffer: inout ScreenBuffer, row: Int) {
        let width = max(1, buffer.size.columns - 2)
        let label = TerminalText.width(label)
        let typed = TerminalText.cells(TerminalText.sanitize(text)).count
        let room = max(0, width - label - 1)
        let x = 1 + label + min(typed, room)
        buffer.cursor = (column: min(x, buffer.size.columns - 1), row: row)
    }
}
