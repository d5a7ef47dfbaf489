/// What a color is for on screen: the names the config's `colors` section sets (`"up": "#00a000"`).
/// Each theme gives every role a color; `Palette` builds the screen's styles from them.
public enum ColorRole: String, Sendable, Hashable, CaseIterable {
    /// Rising prices and changes, gains, and the flash after an uptick.
    case up
    /// Falling prices and changes, losses, and the flash after a downtick.
    case down
    /// The app's name in the header.
    case header
    /// Text on the badges, the flash and the shown list's tab.
    case badgeText
    /// The DEMO badge's background.
    case demoBadge
    /// The NOT SAVED badge's background.
    case unsavedBadge
    /// The LIVE TRADING / TLS NOT VERIFIED badge's background, and its text.
    case securityBadge
    case securityBadgeText
    /// Something that will sort itself out: reconnecting, retrying, warnings.
    case warning
    /// Something that needs the user: failures, refusals, errors.
    case error
    /// A broker's connection that is live or polling.
    case live
    /// The best bid and ask across brokers.
    case best
    /// Overlay borders.
    case border
    /// Keys in the help overlay.
    case key
    /// The shown list's tab's background.
    case activeTab

    /// Where the palette keeps the role's color (read per row: `allCases` would build an array each time).
    var slot: Int { Self.ordered.firstIndex(of: self)! }
    private static let ordered = allCases
}
