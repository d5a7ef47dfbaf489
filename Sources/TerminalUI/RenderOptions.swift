import TerminalKit
import Domain
import Foundation

/// How a frame is drawn, apart from what it shows.
public struct RenderOptions: Sendable, Hashable {
    /// false: no foreground or background colors, only bold, dim, reverse and underline
    /// (NO_COLOR, monochrome terminals); it wins over every theme.
    public var color: Bool
    /// The header clock's time zone; tests pin it so snapshots do not depend on the machine.
    public var timeZone: TimeZone
    /// What the terminal can show; themes fall back to fewer colors on smaller depths.
    public var colorDepth: ColorDepth
    /// The config's `colors`: roles whose color the user chose, over every theme's.
    public var colorOverrides: [ColorRole: ColorSpec]
    /// The config's `colors` for brokers (`"broker.polygon": "#ff8800"`): a broker's glyph and name, by
    /// broker id, over its brand color.
    public var brokerColorOverrides: [String: ColorSpec]
    /// false: charts use ASCII instead of braille (a locale that is not UTF-8).
    public var unicode: Bool
    /// The exchange whose state the header shows (pre-market, open, after hours, closed) and whose
    /// closed hours the age column names; nil shows neither (screens tested for something else).
    public var market: NYSECalendar?

    public init(
        color: Bool = true, timeZone: TimeZone = .current, colorDepth: ColorDepth = .basic,
        colorOverrides: [ColorRole: ColorSpec] = [:], unicode: Bool = true, market: NYSECalendar? = nil,
        brokerColorOverrides: [String: ColorSpec] = [:]
    ) {
        self.brokerColorOverrides = brokerColorOverrides
        self.market = market
        self.unicode = unicode
        self.color = color
        self.timeZone = timeZone
        self.colorDepth = colorDepth
        self.colorOverrides = colorOverrides
    }
}
