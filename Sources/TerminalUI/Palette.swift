import TerminalKit
import Domain
import Interactors

/// The screen's styles by role, in the colors of a theme at the terminal's color depth, with the
/// config's `colors` over them. Without color (`mono`, NO_COLOR, --no-color) every role still reads
/// differently through bold, dim, reverse and underline, so monochrome terminals lose tint but not
/// meaning.
struct Palette: Sendable, Equatable {
    let color: Bool
    /// By `ColorRole.slot`.
    private let roles: [TerminalColor]
    /// By `BrandColor`'s order.
    private let brands: [TerminalColor]
    /// The config's broker colors by broker id; empty for most users, so the per-row lookup is skipped.
    private let brokerColors: [String: TerminalColor]
    /// The palette entries a truecolor theme gives RGB values of its own (`ScreenBuffer.colorDefinitions`).
    let definitions: [ColorDefinition]

    init(_ options: RenderOptions, theme name: ThemeName = .dark) {
        let theme = Theme(name: name)
        color = options.color && theme.hasColors
        guard color else {
            roles = []
            brands = []
            brokerColors = [:]
            definitions = []
            return
        }
        let depth = options.colorDepth
        var resolved = ColorRole.allCases.map { role in
            options.colorOverrides[role]?.resolved(at: depth) ?? theme.color(for: role).resolved(at: depth)
        }
        resolved += Self.brandOrder.map { theme.brand($0).resolved(at: depth) }
        let brokerIDs = options.brokerColorOverrides.keys.sorted()
        resolved += brokerIDs.map { options.brokerColorOverrides[$0]!.resolved(at: depth) }
        let (colors, definitions) = Self.assignPaletteEntries(resolved)
        let brandEnd = ColorRole.allCases.count + Self.brandOrder.count
        roles = Array(colors.prefix(ColorRole.allCases.count))
        brands = Array(colors[ColorRole.allCases.count..<brandEnd])
        brokerColors = Dictionary(uniqueKeysWithValues: zip(brokerIDs, colors[brandEnd...]))
        self.definitions = definitions
    }

    /// RGB colors (truecolor only) take palette entries from 255 down, skipping entries the other colors
    /// use, so the cell can name them; the same RGB twice takes one entry.
    private static func assignPaletteEntries(_ resolved: [ResolvedColor]) -> ([TerminalColor], [ColorDefinition]) {
        var used = Set<UInt8>()
        for case .palette(let color) in resolved { used.insert(color.index) }
        var definitions: [ColorDefinition] = []
        var next: UInt8 = 255
        let colors = resolved.map { color -> TerminalColor in
            switch color {
            case .palette(let color):
                return color
            case .rgb(let rgb):
                if let defined = definitions.first(where: { $0.rgb == rgb }) { return defined.color }
                while used.contains(next), next > 16 { next -= 1 }
                let entry = TerminalColor(index: next)
                used.insert(next)
                definitions.append(ColorDefinition(color: entry, rgb: rgb))
                return entry
            }
        }
        return (colors, definitions)
    }

    private static let brandOrder = BrandColor.allCases

    /// `brandColor`'s place in `brandOrder`, by a switch: read for every row's broker cell, where a
    /// search of the array cost 4 % of a 1,000-row frame. ThemeTests checks it against `allCases`.
    static func brandSlot(_ brandColor: BrandColor) -> Int {
        switch brandColor {
        case .black: 0
        case .red: 1
        case .green: 2
        case .yellow: 3
        case .blue: 4
        case .magenta: 5
        case .cyan: 6
        case .white: 7
        }
    }

    private func role(_ role: ColorRole) -> TerminalColor? {
        color ? roles[role.slot] : nil
    }

    /// Read for every row's change.
    var up: TerminalColor? { color ? roles[Self.upSlot] : nil }
    var down: TerminalColor? { color ? roles[Self.downSlot] : nil }
    private static let upSlot = ColorRole.up.slot
    private static let downSlot = ColorRole.down.slot

    private func pick(_ colored: Style, _ monochrome: Style) -> Style {
        color ? colored : monochrome
    }

    var title: Style { pick(Style(foreground: role(.header), bold: true), Style(bold: true)) }
    /// Loud on purpose, and still loud without color (reverse, bold).
    var securityBadge: Style { pick(Style(foreground: role(.securityBadgeText), background: role(.securityBadge), bold: true), Style(bold: true, reverse: true)) }
    var unsavedBadge: Style { pick(Style(foreground: role(.badgeText), background: role(.unsavedBadge), bold: true), Style(bold: true, reverse: true)) }
    var demoBadge: Style { pick(Style(foreground: role(.badgeText), background: role(.demoBadge), bold: true), Style(bold: true, reverse: true)) }
    var headerDetail: Style { Style(dim: true) }
    var clock: Style { Style(bold: true) }
    var heading: Style { Style(bold: true, underline: true) }
    var muted: Style { Style(dim: true) }
    var plain: Style { .plain }

    /// Change and change % (and gains, fills, sides) by sign.
    func trend(_ value: ExactDecimal) -> Style {
        guard color, !value.isZero else { return .plain }
        return Style(foreground: value.isPositive ? up : down)
    }

    /// The last price right after it moved.
    func flash(direction: Int) -> Style {
        guard color else { return Style(bold: true, reverse: true) }
        switch direction {
        case 1...: return Style(foreground: role(.badgeText), background: up, bold: true)
        case ..<0: return Style(foreground: role(.badgeText), background: down, bold: true)
        default: return Style(bold: true, reverse: true)
        }
    }

    /// A row's error: yellow while its broker is trying again, red when nothing will change by itself.
    func rowError(transient: Bool) -> Style {
        pick(Style(foreground: role(transient ? .warning : .error)), .plain)
    }

    func brand(_ brandColor: BrandColor) -> Style {
        guard color else { return Style(bold: true) }
        return Style(foreground: brands[Self.brandSlot(brandColor)], bold: true)
    }

    /// A broker's glyph and name: the config's color for it, else its brand color in the theme.
    func brand(_ branding: ServiceBranding) -> Style {
        guard color, !brokerColors.isEmpty, let chosen = brokerColors[branding.id] else { return brand(branding.color) }
        return Style(foreground: chosen, bold: true)
    }

    func connection(_ state: BrokerConnectionState) -> Style {
        switch state {
        case .live, .polling: pick(Style(foreground: role(.live)), .plain)
        case .connecting, .reconnecting, .retrying: pick(Style(foreground: role(.warning)), .plain)
        case .failed: pick(Style(foreground: role(.error), bold: true), Style(bold: true))
        }
    }

    func message(_ kind: StatusMessage.Kind) -> Style {
        switch kind {
        case .info: .plain
        case .warning: pick(Style(foreground: role(.warning)), Style(bold: true))
        case .error: pick(Style(foreground: role(.error), bold: true), Style(bold: true))
        }
    }

    var promptLabel: Style { Style(bold: true) }
    var promptError: Style { pick(Style(foreground: role(.error)), Style(bold: true)) }
    var hintKey: Style { Style(bold: true) }
    var hintLabel: Style { Style(dim: true) }
    var overlayBorder: Style { pick(Style(foreground: role(.border)), .plain) }
    var overlayTitle: Style { Style(bold: true) }
    /// The best bid or ask across brokers, in the detail view.
    var best: Style { pick(Style(foreground: role(.best), bold: true), Style(bold: true, underline: true)) }
    /// A per-broker row whose broker looks wrong (an outlier price, or stale while others are live): its
    /// margin mark and its last price.
    var flagged: Style { pick(Style(foreground: .magenta, bold: true), Style(bold: true)) }
    var selectedList: Style { Style(bold: true, reverse: true) }
    var selectedListKey: Style { Style(bold: true, reverse: true) }
    var activeTab: Style { pick(Style(foreground: role(.badgeText), background: role(.activeTab), bold: true), Style(bold: true, reverse: true)) }
    var inactiveTab: Style { Style(dim: true) }
    /// A row whose alert fired (until the alert log is opened), beside the `!` mark in its margin; and a
    /// fired alert in the log. Reverse and underline without color.
    var alertFired: Style { pick(Style(foreground: .black, background: .magenta, bold: true), Style(bold: true, underline: true)) }
    var overlayKey: Style { pick(Style(foreground: role(.key), bold: true), Style(bold: true)) }
}

extension TerminalColor {
    public init(_ brandColor: BrandColor) {
        switch brandColor {
        case .black: self = .black
        case .red: self = .red
        case .green: self = .green
        case .yellow: self = .yellow
        case .blue: self = .blue
        case .magenta: self = .magenta
        case .cyan: self = .cyan
        case .white: self = .white
        }
    }
}
