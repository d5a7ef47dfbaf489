/// A color as red, green and blue, 0…255 each: what a theme or the config asks for in truecolor.
public struct RGBColor: Sendable, Hashable, CustomStringConvertible {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// 0xRRGGBB.
    public init(hex: UInt32) {
        self.init(red: UInt8(hex >> 16 & 0xFF), green: UInt8(hex >> 8 & 0xFF), blue: UInt8(hex & 0xFF))
    }

    public var hex: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    public var description: String {
        let digits = String(hex, radix: 16)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// Squared distance, weighted the way the eye weighs the channels ("redmean"), so the nearest
    /// palette color looks nearest too.
    public func distance(to other: RGBColor) -> Int {
        let meanRed = (Int(red) + Int(other.red)) / 2
        let r = Int(red) - Int(other.red)
        let g = Int(green) - Int(other.green)
        let b = Int(blue) - Int(other.blue)
        // Swift's >> binds tighter than *: the products are parenthesized before the shift.
        return (((512 + meanRed) * r * r) >> 8) + 4 * g * g + (((767 - meanRed) * b * b) >> 8)
    }
}
