/// The built-in themes, in the order `T` cycles through them. Their colors live in TerminalUI's `Theme`.
public enum ThemeName: String, Sendable, Hashable, CaseIterable {
    /// The original look, for dark backgrounds.
    case dark
    /// For white or light backgrounds: no white or yellow text, darker rises and falls.
    case light
    /// Bright colors and strong marks for low-contrast displays and eyes.
    case highContrast = "high-contrast"
    /// No colors at all: bold, dim, reverse and underline only.
    case mono

    public var next: ThemeName {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
