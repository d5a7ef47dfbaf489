/// A cell packed into one integer, so a frame is a flat array of words: clearing, restyling and
/// diffing it are integer operations, and an unchanged row is one `memcmp`. (A `Cell` holds a
/// 16-byte `Character` whose equality goes through the Unicode machinery; a 1,000-row frame is
/// 120,480 of them.)
///
///     bits  0-31  the character: a Unicode scalar value, or `graphemeBase` + the index of a
///                 character of several scalars in the buffer's side table (views never make one:
///                 `TerminalText.cells` yields one scalar per cell; only `Cell` values set from
///                 outside can carry one)
///     bits 32-40  foreground: 0 is the terminal's default, else 1 + `TerminalColor.index`
///     bits 41-49  background, the same way
///     bits 50-53  bold, dim, reverse, underline
public enum CellCode {
    public static let characterMask: UInt64 = 0xFFFF_FFFF
    public static let styleShift: UInt64 = 32
    public static let graphemeBase: UInt32 = 0x11_0000

    public static let bold: UInt64 = 1 << 50
    public static let dim: UInt64 = 1 << 51
    public static let reverse: UInt64 = 1 << 52
    public static let underline: UInt64 = 1 << 53
    private static let foregroundShift: UInt64 = 32
    private static let backgroundShift: UInt64 = 41
    private static let colorMask: UInt64 = 0x1FF

    /// A space in the default style.
    public static let blank: UInt64 = 0x20

    /// The style's bits, in place (already shifted), ready to be OR-ed with a character.
    @inline(__always)
    public static func bits(_ style: Style) -> UInt64 {
        var bits: UInt64 = 0
        if let foreground = style.foreground { bits |= (UInt64(foreground.index) + 1) << foregroundShift }
        if let background = style.background { bits |= (UInt64(background.index) + 1) << backgroundShift }
        if style.bold { bits |= bold }
        if style.dim { bits |= dim }
        if style.reverse { bits |= reverse }
        if style.underline { bits |= underline }
        return bits
    }

    public static func style(of code: UInt64) -> Style {
        Style(
            foreground: color(code >> foregroundShift & colorMask), background: color(code >> backgroundShift & colorMask),
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

    /// The cell's character when it is one scalar, read from the code alone; nil for a character of
    /// several (`isGrapheme`: `ScreenBuffer.character(of:)` has it) and for a value that is no scalar.
    @inline(__always)
    public static func scalar(of code: UInt64) -> Unicode.Scalar? {
        let value = character(of: code)
        return value < graphemeBase ? Unicode.Scalar(value) : nil
    }

    @inline(__always)
    public static func isGrapheme(_ code: UInt64) -> Bool {
        character(of: code) >= graphemeBase
    }

    private static func color(_ field: UInt64) -> TerminalColor? {
        field == 0 ? nil : TerminalColor(index: UInt8(field - 1))
    }
}
