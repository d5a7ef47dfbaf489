import TerminalKit
/// A `Style` in curses terms: video attributes and the colors of the pair to draw with.
struct CursesCellStyle: Sendable, Hashable {
    struct Attributes: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        static let bold = Attributes(rawValue: 1 << 0)
        static let dim = Attributes(rawValue: 1 << 1)
        static let reverse = Attributes(rawValue: 1 << 2)
        static let underline = Attributes(rawValue: 1 << 3)
    }

    var attributes: Attributes
    /// Nil draws with pair 0, the terminal's defaults.
    var colors: CursesColorPair?

    init(attributes: Attributes, colors: CursesColorPair?) {
        self.attributes = attributes
        self.colors = colors
    }

    init(_ style: Style, colorMode: CursesColorMode) {
        var attributes: Attributes = []
        if style.bold { attributes.insert(.bold) }
        if style.dim { attributes.insert(.dim) }
        if style.reverse { attributes.insert(.reverse) }
        if style.underline { attributes.insert(.underline) }
        self.attributes = attributes
        self.colors = Self.colors(foreground: style.foreground, background: style.background, mode: colorMode)
    }

    private static func colors(foreground: TerminalColor?, background: TerminalColor?, mode: CursesColorMode) -> CursesColorPair? {
        switch mode {
        case .off:
            return nil
        case .withDefaultColors:
            guard foreground != nil || background != nil else { return nil }
            return CursesColorPair(foreground: number(foreground, default: -1), background: number(background, default: -1))
        case .withoutDefaultColors:
            guard foreground != nil || background != nil else { return nil }
            return CursesColorPair(
                foreground: number(foreground, default: number(.white, default: 0)),
                background: number(background, default: number(.black, default: 0))
            )
        }
    }

    /// `TerminalColor` numbers its colors as curses does (COLOR_BLACK = 0 … COLOR_WHITE = 7, then the
    /// palette up to 255).
    private static func number(_ color: TerminalColor?, default fallback: Int32) -> Int32 {
        color.map { Int32($0.index) } ?? fallback
    }
}
