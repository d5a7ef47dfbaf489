import Interactors

/// The second-to-last row: the current message, or the add prompt while adding.
struct StatusLine {
    let state: WatchlistViewState
    let palette: Palette

    func draw(into buffer: inout ScreenBuffer, row: Int) {
        if case .adding(let text, let error) = state.mode {
            drawPrompt(text: text, error: error, into: &buffer, row: row)
        } else if let message = state.message {
            StyledText(message.text, style: palette.message(message.kind))
                .truncated(toWidth: buffer.size.columns - 2)
                .draw(into: &buffer, column: 1, row: row)
        }
    }

    /// "Add symbols: <typed>▏  <error>    Enter add · Esc cancel", the cursor after the typed text. A long
    /// input scrolls: its tail stays visible, so the cursor always is.
    private func drawPrompt(text: String, error: String?, into buffer: inout ScreenBuffer, row: Int) {
        let columns = buffer.size.columns
        let label = StyledText("Add symbols: ", style: palette.promptLabel)
        var x = label.draw(into: &buffer, column: 1, row: row)

        let typed = TerminalText.cells(TerminalText.sanitize(text))
        let room = max(0, columns - 1 - x - 1)
        let shown = typed.count <= room ? typed : [TerminalText.ellipsis] + typed.suffix(max(0, room - 1))
        x = buffer.write(cells: shown, column: x, row: row)
        buffer.cursor = (column: min(x, columns - 1), row: row)

        var hint = StyledText("Enter", style: palette.hintKey)
        hint.append(" add · ", style: palette.hintLabel)
        hint.append("Esc", style: palette.hintKey)
        hint.append(" cancel", style: palette.hintLabel)

        var after = x + 2
        if let error, !error.isEmpty {
            let message = StyledText(error, style: palette.promptError)
            let fitsWithHint = after + message.width + 3 + hint.width <= columns - 1
            after = message.truncated(toWidth: columns - 1 - after).draw(into: &buffer, column: after, row: row) + 3
            guard fitsWithHint else { return }
        }
        let hintX = columns - 1 - hint.width
        if hintX >= after {
            hint.draw(into: &buffer, column: hintX, row: row)
        }
    }
}
