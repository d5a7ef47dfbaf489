import TerminalKit
import Domain
import Interactors

/// The screen's styles by role. Without color every role still reads differently through bold, dim,
/// reverse and underline, so monochrome terminals lose tint but not meaning.
struct Palette: Sendable {
    let color: Bool
    let up: TerminalColor
    let down: TerminalColor

    init(_ options: RenderOptions) {
        color = options.color
        up = options.upColor
        down = options.downColor
    }

    private func pick(_ colored: Style, _ monochrome: Style) -> Style {
        color ? colored : monochrome
    }

    var title: Style { pick(Style(foreground: .cyan, bold: true), Style(bold: true)) }
    /// Loud on purpose, and still loud without color (reverse, bold).
    var securityBadge: Style { pick(Style(foreground: .white, background: .red, bold: true), Style(bold: true, reverse: true)) }
    var unsavedBadge: Style { pick(Style(foreground: .black, background: .cyan, bold: true), Style(bold: true, reverse: true)) }
    var demoBadge: Style { pick(Style(foreground: .black, background: .yellow, bold: true), Style(bold: true, reverse: true)) }
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
        case 1...: return Style(foreground: .black, background: up, bold: true)
        case ..<0: return Style(foreground: .black, background: down, bold: true)
        default: return Style(bold: true, reverse: true)
        }
    }

    /// A row's error: yellow while its broker is trying again, red when nothing will change by itself.
    func rowError(transient: Bool) -> Style {
        pick(Style(foreground: transient ? .yellow : .red), .plain)
    }

    func brand(_ brandColor: BrandColor) -> Style {
        pick(Style(foreground: TerminalColor(brandColor), bold: true), Style(bold: true))
    }

    func connection(_ state: BrokerConnectionState) -> Style {
        switch state {
        case .live, .polling: pick(Style(foreground: .green), .plain)
        case .connecting, .reconnecting, .retrying: pick(Style(foreground: .yellow), .plain)
        case .failed: pick(Style(foreground: .red, bold: true), Style(bold: true))
        }
    }

    func message(_ kind: StatusMessage.Kind) -> Style {
        switch kind {
        case .info: .plain
        case .warning: pick(Style(foreground: .yellow), Style(bold: true))
        case .error: pick(Style(foreground: .red, bold: true), Style(bold: true))
        }
    }

    var promptLabel: Style { Style(bold: true) }
    var promptError: Style { pick(Style(foreground: .red), Style(bold: true)) }
    var hintKey: Style { Style(bold: true) }
    var hintLabel: Style { Style(dim: true) }
    var overlayBorder: Style { pick(Style(foreground: .cyan), .plain) }
    var overlayTitle: Style { Style(bold: true) }
    /// The best bid or ask across brokers, in the detail view.
    var best: Style { pick(Style(foreground: .green, bold: true), Style(bold: true, underline: true)) }
    /// A per-broker row whose broker looks wrong (an outlier price, or stale while others are live): its
    /// margin mark and its last price.
    var flagged: Style { pick(Style(foreground: .magenta, bold: true), Style(bold: true)) }
    var selectedList: Style { Style(bold: true, reverse: true) }
    var selectedListKey: Style { Style(bold: true, reverse: true) }
    var activeTab: Style { pick(Style(foreground: .black, background: .cyan, bold: true), Style(bold: true, reverse: true)) }
    var inactiveTab: Style { Style(dim: true) }
    var overlayKey: Style { pick(Style(foreground: .cyan, bold: true), Style(bold: true)) }
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
