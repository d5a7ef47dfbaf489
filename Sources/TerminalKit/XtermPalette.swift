/// xterm's 256 colors as RGB, and the nearest of them to any RGB color: how a truecolor theme is drawn
/// on a 256-color terminal, and an 8-color one on the eight ANSI colors. Values from xterm's
/// `256colres.h` (the 6×6×6 cube steps 0, 95, 135, 175, 215, 255; the gray ramp 8 + 10·n) and its
/// default ANSI colors.
public enum XtermPalette {
    private static let ansi: [UInt32] = [
        0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
        0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF,
    ]
    private static let cubeSteps: [UInt8] = [0, 95, 135, 175, 215, 255]

    /// The RGB value xterm shows for palette entry `index`.
    public static func rgb(of index: UInt8) -> RGBColor {
        switch index {
        case 0..<16:
            return RGBColor(hex: ansi[Int(index)])
        case 16..<232:
            let cube = Int(index) - 16
            return RGBColor(red: cubeSteps[cube / 36], green: cubeSteps[cube / 6 % 6], blue: cubeSteps[cube % 6])
        default:
            let level = UInt8(8 + 10 * (Int(index) - 232))
            return RGBColor(red: level, green: level, blue: level)
        }
    }

    /// The entry of 16…255 that looks nearest `color`. Entries 0…15 are left out: terminals let users
    /// restyle them, so they are not the RGB a theme asked for.
    public static func nearest256(to color: RGBColor) -> TerminalColor {
        TerminalColor(index: nearest(to: color, among: 16...255))
    }

    /// The ANSI color (0…7) that looks nearest `color`, for an 8-color terminal. Grays go to black or
    /// white rather than to a hue.
    public static func nearestBasic(to color: RGBColor) -> TerminalColor {
        TerminalColor(index: nearest(to: color, among: 0...7))
    }

    private static func nearest(to color: RGBColor, among indexes: ClosedRange<UInt8>) -> UInt8 {
        var best = indexes.lowerBound
        var bestDistance = Int.max
        for index in indexes {
            let distance = rgb(of: index).distance(to: color)
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }
}
