/// A terminal color a cell can ask for, by its number in the terminal's palette: 0…7 are the eight
/// ANSI colors (in curses order: black = 0 … white = 7), 8…15 their bright forms, 16…255 xterm's
/// 256-color cube and gray ramp. `nil` in a `Style` means the terminal's default. A truecolor theme
/// gives colors of its own a number too (`ScreenBuffer.colorDefinitions` says which RGB it means), so a
/// cell stays one packed integer whatever the color depth.
public struct TerminalColor: Sendable, Hashable {
    public let index: UInt8

    public init(index: UInt8) {
        self.index = index
    }

    public static let black = TerminalColor(index: 0)
    public static let red = TerminalColor(index: 1)
    public static let green = TerminalColor(index: 2)
    public static let yellow = TerminalColor(index: 3)
    public static let blue = TerminalColor(index: 4)
    public static let magenta = TerminalColor(index: 5)
    public static let cyan = TerminalColor(index: 6)
    public static let white = TerminalColor(index: 7)

    /// The eight ANSI colors, which every color terminal has.
    public static let allCases: [TerminalColor] = (0..<8).map { TerminalColor(index: $0) }

    /// One of the eight ANSI colors (what an 8-color terminal can show).
    public var isBasic: Bool { index < 8 }
}

/// How one cell is drawn.
public struct Style: Sendable, Hashable {
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    public init(
        foreground: TerminalColor? = nil, background: TerminalColor? = nil,
        bold: Bool = false, dim: Bool = false, reverse: Bool = false, underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    public static let plain = Style()
}
