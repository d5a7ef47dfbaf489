/// A truecolor theme's own color: palette entry `color` is to show `rgb`. The terminal session defines it
/// (curses' `init_extended_color`) before drawing cells that use it.
public struct ColorDefinition: Sendable, Hashable {
    public var color: TerminalColor
    public var rgb: RGBColor

    public init(color: TerminalColor, rgb: RGBColor) {
        self.color = color
        self.rgb = rgb
    }
}
