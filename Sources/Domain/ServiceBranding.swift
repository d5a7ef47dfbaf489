/// How a broker presents itself. `id` is stable forever: it keys rows, caches and persisted state.
public struct ServiceBranding: Sendable, Hashable, Codable {
    public let id: String
    public let name: String
    /// One display cell wide, ASCII-safe where possible, so columns never shift.
    public let glyph: String
    public let color: BrandColor

    public init(id: String, name: String, glyph: String, color: BrandColor) {
        self.id = id
        self.name = name
        self.glyph = glyph
        self.color = color
    }
}

/// The eight portable terminal colors; themes map them to whatever the terminal can show.
public enum BrandColor: String, Sendable, Hashable, Codable, CaseIterable {
    case black, red, green, yellow, blue, magenta, cyan, white
}

/// Anything that speaks for one broker.
public protocol BrandedService: Sendable {
    var branding: ServiceBranding { get }
}
