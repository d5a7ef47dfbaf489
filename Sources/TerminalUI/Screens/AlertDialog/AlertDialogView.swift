import Domain
import Interactors
import TerminalKit

/// The alert dialog (`!`): a box over the table with the row's symbol, each broker's last price and how
/// to write an alert; the text itself is typed in the status line below it, where the add prompt is,
/// with the reason under it when Enter refused it.
struct AlertDialogView {
    let dialog: AlertDialog
    let palette: Palette

    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        let context = dialog.context
        var lines: [StyledText] = []
        var title = StyledText(TerminalText.sanitize(context.symbol), style: palette.overlayTitle)
        title.append("  last: ", style: palette.muted)
        let prices = context.brokers.map { broker -> String in
            let price = context.lastPrices[broker.id].map(QuoteFormatting.price) ?? QuoteFormatting.missing
            return "\(TerminalText.sanitize(broker.name)) \(price)"
        }
        title.append(prices.joined(separator: " · "))
        lines.append(title)
        lines.append(StyledText())
        lines.append(entry(">190.5  <180", "at or above / at or below a price"))
        lines.append(entry("+5%  -3%", "a move from the price now"))
        lines.append(entry("any", "on every broker's quotes (the default)"))
        lines.append(entry("@", "only on \(TerminalText.sanitize(context.rowBroker.name)), this row's broker"))
        lines.append(entry("@name", "only on one broker, e.g. @\(Self.example(context))"))
        lines.append(entry("rearm", "fire again once the price has gone back"))
        lines.append(StyledText())
        var example = StyledText("e.g. ", style: palette.muted)
        example.append(">190.5 @ rearm", style: palette.overlayKey)
        example.append("   Enter sets it", style: palette.muted)
        lines.append(example)
        OverlayBox(title: "Set an alert", closingKey: "Esc", palette: palette).draw(lines, into: &buffer, rows: area)
    }

    private func entry(_ keys: String, _ meaning: String) -> StyledText {
        var line = StyledText(keys, style: palette.overlayKey)
        line.append(String(repeating: " ", count: max(2, 14 - TerminalText.width(keys))))
        line.append(meaning)
        return line
    }

    /// A word that `@` accepts for a broker other than the row's, as the user would type it.
    private static func example(_ context: AlertInput.Context) -> String {
        let other = context.brokers.first { $0.id != context.rowBroker.id } ?? context.rowBroker
        return TerminalText.sanitize(other.id)
    }
}
