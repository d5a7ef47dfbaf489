import Domain
import Foundation
import TerminalKit

/// The header's words for the US equity market's state, longest first, for the header to pick the
/// longest that fits: "NYSE closed · opens Mon 09:30 ET", "closed · opens Mon 09:30 ET", "closed".
/// Times are New York's (ET), whatever zone the header's clock shows, since that is where the market
/// keeps them.
struct MarketStateLabel {
    let state: MarketState
    let now: Date
    let palette: Palette

    var variants: [StyledText] {
        let word: String
        let detail: String
        switch state.phase {
        case .preMarket:
            word = "pre-market"
            detail = "opens \(time(state.nextChange)) ET"
        case .open:
            word = "open"
            detail = "closes \(time(state.nextChange)) ET"
        case .afterHours:
            word = "after hours"
            detail = "until \(time(state.nextChange)) ET"
        case .closed:
            word = "closed"
            detail = "opens \(dayAndTime(state.nextOpen)) ET"
        }
        func label(_ prefix: String, _ word: String, detail: String?) -> StyledText {
            var text = StyledText(prefix, style: palette.headerDetail)
            text.append(word, style: .plain)
            if let detail { text.append(" · \(detail)", style: palette.headerDetail) }
            return text
        }
        return [
            label("NYSE ", word, detail: detail),
            label("", word, detail: detail),
            state.phase == .open ? label("NYSE ", word, detail: nil) : label("", word, detail: nil),
        ]
    }

    /// "09:30" in New York.
    private func time(_ date: Date) -> String {
        let minutes = NewYorkTime.wallClock(at: date).secondOfDay / 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(minutes / 60)):\(two(minutes % 60))"
    }

    /// "09:30" when it is today in New York, else "Mon 09:30".
    private func dayAndTime(_ date: Date) -> String {
        let day = NewYorkTime.wallClock(at: date).day
        return day == NewYorkTime.wallClock(at: now).day ? time(date) : "\(day.weekday.abbreviation) \(time(date))"
    }
}
