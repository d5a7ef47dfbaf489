import TerminalKit
import Domain
import Foundation

/// How a frame is drawn, apart from what it shows.
public struct RenderOptions: Sendable, Hashable {
    /// false: no foreground or background colors, only bold, dim, reverse and underline
    /// (NO_COLOR, monochrome terminals).
    public var color: Bool
    /// The header clock's time zone; tests pin it so snapshots do not depend on the machine.
    public var timeZone: TimeZone
    /// Rising and falling prices (the config's `theme`).
    public var upColor: TerminalColor
    public var downColor: TerminalColor
    /// false: charts use ASCII instead of braille (a locale that is not UTF-8).
    public var unicode: Bool
    /// The exchange whose state the header shows (pre-market, open, after hours, closed) and whose
    /// closed hours the age column names; nil shows neither (screens tested for something else).
    public var market: NYSECalendar?

    public init(
        color: Bool = true, timeZone: TimeZone = .current, upColor: TerminalColor = .green, downColor: TerminalColor = .red,
        unicode: Bool = true, market: NYSECalendar? = nil
    ) {
        self.market = market
        self.unicode = unicode
        self.color = color
        self.timeZone = timeZone
        self.upColor = upColor
        self.downColor = downColor
    }
}
