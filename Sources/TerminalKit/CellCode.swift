/// A cell packed into one integer, so a frame is a flat array of words: clearing, restyling and
/// diffing it are integer operations, and an unchanged row is one `memcmp`. (A `Cell` holds a
/// 16-byte `Character` whose equality goes through the Unicode machinery; a 1,000-row frame is
/// 120,480 of them.)
///
///     bits  0-31  the character: a Unicode scalar value, or `graphemeBase` + the index of a
///                 character of several scalars in the buffer's side table (views never make one:
///                 `TerminalText.cells` yields one scalar per cell; only `Cell` values set from
///                 outside can carry one)
///     bits 32-35  foreground: 0 is the terminal's default, else 1 + `TerminalColor.rawValue`
///     bits 36-39  background, the same way
///     bits 40-43  bold, dim, reverse, underline
public enum CellCode {
    public static let characterMask: UInt64 = 0xFFFF_FFFF
    public static let styleShift: UInt64 = 32
    public static let graphemeBase: UInt32 = 0x11_0000

    public static let bold: UInt64 = 1 << 40
    public static let dim: UInt64 = 1 << 41
    public static let reverse: UInt64 = 1 << 42
    public static let underline: UInt64 = 1 << 43

    /// A space in the default style.
    public static let blank: UInt64 = 0x20

    /// The style's bits, in place (already shifted), ready to be OR-ed with a character.
    @inline(__always)
    public static func bits(_ style: Style) -> UInt64 {
        var bits: UInt64 = 0
        if let foreground = style.foreground { bits |= UInt64(foreground.rawValue + 1) << 32 }
        if let background = style.background { bits |= UInt64(background.rawValue + 1) << 36 }
        if style.bold { bits |= bold }
        if style.dim { bits |= dim }
        if style.reverse { bits |= reverse }
        if style.underline { bits |= underline }
        return bits
    }

    public static func style(of code: UInt64) -> Style {
        Style(
            foreground: color(code >> 32 & 0xF), background: color(code >> 36 & 0xF),
            bold: code & bold != 0, dim: code & dim != 0, reverse: code & reverse != 0, underline: code & underline != 0)
    }

    @inline(__always)
    public static func styleBits(of code: UInt64) -> UInt64 {
        code & ~characterMask
    }

    @inline(__always)
    public static func character(of code: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: code)
    }

    @inline(__always)
    public static func isGrapheme(_ code: UInt64) -> Bool {
        character(of: code) >= graphemeBase
    }

    private static func color(_ nibble: UInt64) -> TerminalColor? {
        nibble == 0 ? nil : TerminalColor(rawValue: UInt8(nibble - 1))
    }
}
