import TerminalKit
import Foundation
import Interactors

/// The message log (`m`): the last messages, newest first, each with the time it was said and wrapped
/// to the box, so a long error (where a corrupt file went, which variable to set) can be read whole.
struct MessageLogOverlay {
    let messages: [StatusMessage]
    let timeZone: TimeZone
    let palette: Palette

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        let stamp = 8 + 2  // "HH:mm:ss" and a gap
        // The box is as wide as the screen allows, up to 100 columns: room for long reasons.
        let textWidth = max(10, min(100, buffer.size.columns - 2) - 4 - stamp)
        var lines: [StyledText] = []
        if messages.isEmpty {
            lines.append(StyledText("No messages yet", style: palette.muted))
        }
        for message in messages.reversed() {
            let wrapped = TerminalText.wrap(TerminalText.cells(TerminalText.sanitize(message.text)), toWidth: textWidth)
            for (index, part) in wrapped.enumerated() {
                var line = index == 0
                    ? StyledText(HeaderBar.clock(message.at, timeZone: timeZone), style: palette.muted)
                    : StyledText(String(repeating: " ", count: 8))
                line.append("  ")
                line.append(cells: part, style: palette.message(message.kind))
                lines.append(line)
            }
        }
        OverlayBox(title: "Messages", closingKey: "m", palette: palette).draw(lines, into: &buffer, rows: area)
    }
}
