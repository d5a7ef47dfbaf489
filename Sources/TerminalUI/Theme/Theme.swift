import Domain
import Interactors
import TerminalKit

/// A theme's colors by role: on terminals with 256 colors or more each role takes its `rich` color, on
/// 8-color terminals its `basic` one, chosen by hand rather than by nearest RGB (the nearest ANSI color
/// to a dark yellow is yellow, unreadable on white). `mono` has none: `Palette` draws it with
/// attributes only, as for NO_COLOR.
struct Theme: Sendable {
    struct Color: Sendable {
        var rich: ColorSpec
        var basic: TerminalColor

        static func basic(_ color: TerminalColor) -> Color { Color(rich: .basic(color), basic: color) }
        static func indexed(_ index: UInt8, else basic: TerminalColor) -> Color { Color(rich: .indexed(index), basic: basic) }

        func resolved(at depth: ColorDepth) -> ResolvedColor {
            depth == .basic ? .palette(basic) : rich.resolved(at: depth)
        }
    }

    let name: ThemeName

    /// Whether the theme draws in color at all.
    var hasColors: Bool { name != .mono }

    func color(for role: ColorRole) -> Color {
        switch name {
        case .dark, .mono: Self.dark(role)
        case .light: Self.light(role)
        case .highContrast: Self.highContrast(role)
        }
    }

    /// A broker's glyph color (its brand) as this theme draws it.
    func brand(_ brand: BrandColor) -> Color {
        let color = TerminalColor(brand)
        switch name {
        case .dark, .mono:
            return .basic(color)
        case .light:
            // Yellow and white vanish on white; the other hues darken a step.
            switch brand {
            case .yellow: return .indexed(136, else: .magenta)
            case .white: return .indexed(240, else: .black)
            case .green: return .indexed(28, else: .green)
            case .red: return .indexed(124, else: .red)
            case .blue: return .indexed(25, else: .blue)
            case .magenta: return .indexed(127, else: .magenta)
            case .cyan: return .indexed(30, else: .blue)
            case .black: return .basic(.black)
            }
        case .highContrast:
            return .indexed(color.index + 8, else: color)
        }
    }

    /// Today's look, for dark backgrounds: the eight ANSI colors only, so it is the same at every depth.
    private static func dark(_ role: ColorRole) -> Color {
        switch role {
        case .up, .live, .best: .basic(.green)
        case .down, .error, .securityBadge: .basic(.red)
        case .header, .unsavedBadge, .border, .key, .activeTab: .basic(.cyan)
        case .badgeText: .basic(.black)
        case .demoBadge, .warning: .basic(.yellow)
        case .securityBadgeText: .basic(.white)
        }
    }

    /// For white backgrounds: darker greens and reds, blue instead of cyan, orange-brown instead of
    /// yellow text, and no white text (badges have black text on light backgrounds).
    private static func light(_ role: ColorRole) -> Color {
        switch role {
        case .up, .live, .best: .indexed(28, else: .green)
        case .down: .indexed(124, else: .red)
        case .error: .indexed(160, else: .red)
        case .header, .border, .key: .indexed(25, else: .blue)
        case .badgeText, .securityBadgeText: .basic(.black)
        case .demoBadge: .indexed(220, else: .yellow)
        case .unsavedBadge: .indexed(117, else: .cyan)
        case .securityBadge: .indexed(203, else: .red)
        case .warning: .indexed(130, else: .magenta)
        case .activeTab: .indexed(153, else: .cyan)
        }
    }

    /// Bright colors (palette 8…15) where the terminal has them, black text on bright badges.
    private static func highContrast(_ role: ColorRole) -> Color {
        switch role {
        case .up, .live, .best: .indexed(10, else: .green)
        case .down, .error: .indexed(9, else: .red)
        case .header: .indexed(14, else: .cyan)
        case .badgeText: .basic(.black)
        case .demoBadge, .activeTab: .indexed(11, else: .yellow)
        case .unsavedBadge: .indexed(14, else: .cyan)
        case .securityBadge: .indexed(9, else: .red)
        case .securityBadgeText: .basic(.black)
        case .warning, .key: .indexed(11, else: .yellow)
        case .border: .indexed(15, else: .white)
        }
    }
}
