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

    /// Where the palette keeps the role's color: its place in `allCases`. Read for every cell style of
    /// every row, so a switch (a table lookup) rather than a search of `allCases`, which took some 65
    /// instructions a read, 4 % of a 1,000-row frame. ThemeTests checks it against `allCases`.
    var slot: Int {
        switch self {
        case .up: 0
        case .down: 1
        case .header: 2
        case .badgeText: 3
        case .demoBadge: 4
        case .unsavedBadge: 5
        case .securityBadge: 6
        case .securityBadgeText: 7
        case .warning: 8
        case .error: 9
        case .live: 10
        case .best: 11
        case .border: 12
        case .key: 13
        case .activeTab: 14
        }
    }
}
