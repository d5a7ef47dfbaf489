import Foundation
import TerminalKit

/// A color as a theme or the config writes it: one of the eight ANSI names, a palette number, or RGB.
/// `resolved(at:)` turns it into what a terminal of a given depth can show.
public enum ColorSpec: Sendable, Hashable, CustomStringConvertible {
    /// black … white: the same on every color terminal (and as the terminal's own scheme draws them).
    case basic(TerminalColor)
    /// A palette number 0…255 ("brightRed" is 9).
    case indexed(UInt8)
    /// "#00a000" or "#0a0".
    case rgb(RGBColor)

    static let basicNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    /// What the config's error message says a color may be.
    public static let accepted = "a color name (black, red, green, yellow, blue, magenta, cyan, white, brightRed … brightWhite, gray), "
        + "a palette number 0-255, or \"#rrggbb\""

    /// Nil for anything else; names are matched without regard to case.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lower = trimmed.lowercased()
        if let index = Self.basicNames.firstIndex(of: lower) {
            self = .basic(TerminalColor(index: UInt8(index)))
        } else if lower.hasPrefix("bright"), let index = Self.basicNames.firstIndex(of: String(lower.dropFirst(6))) {
            self = .indexed(UInt8(8 + index))
        } else if lower == "gray" || lower == "grey" {
            self = .indexed(8)
        } else if let number = UInt8(lower), lower.allSatisfy(\.isASCII) {
            self = .indexed(number)
        } else if lower.hasPrefix("#"), let rgb = Self.hex(String(lower.dropFirst())) {
            self = .rgb(rgb)
        } else {
            return nil
        }
    }

    private static func hex(_ digits: String) -> RGBColor? {
        guard digits.allSatisfy(\.isHexDigit), digits.allSatisfy(\.isASCII) else { return nil }
        switch digits.count {
        case 6: return UInt32(digits, radix: 16).map(RGBColor.init(hex:))
        case 3:
            // #0a0 is #00aa00, as in CSS.
            let doubled = digits.map { "\($0)\($0)" }.joined()
            return UInt32(doubled, radix: 16).map(RGBColor.init(hex:))
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .basic(let color): Self.basicNames[Int(color.index)]
        case .indexed(let index): "\(index)"
        case .rgb(let rgb): rgb.description
        }
    }

    /// What a terminal of `depth` shows for this color: the color itself when it can, else the nearest
    /// it has. A palette color of its own is needed only for RGB at truecolor (`.rgb`).
    public func resolved(at depth: ColorDepth) -> ResolvedColor {
        switch (self, depth) {
        case (.basic(let color), _):
            return .palette(color)
        case (.indexed(let index), .basic):
            if index < 8 { return .palette(TerminalColor(index: index)) }
            // A bright color's plain form: what 8-color terminals show for it with bold.
            if index < 16 { return .palette(TerminalColor(index: index - 8)) }
            return .palette(XtermPalette.nearestBasic(to: XtermPalette.rgb(of: index)))
        case (.indexed(let index), _):
            return .palette(TerminalColor(index: index))
        case (.rgb(let rgb), .basic):
            return .palette(XtermPalette.nearestBasic(to: rgb))
        case (.rgb(let rgb), .indexed256):
            return .palette(XtermPalette.nearest256(to: rgb))
        case (.rgb(let rgb), .trueColor):
            return .rgb(rgb)
        }
    }
}

/// A color a terminal can show: a palette entry it has, or an RGB color that needs an entry defined.
public enum ResolvedColor: Sendable, Hashable {
    case palette(TerminalColor)
    case rgb(RGBColor)
}
