/// Polygon's (Massive's) API key, and the variable it comes from so messages can name what to fix.
public struct PolygonCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public var apiKey: String?
    /// Named in hints ("check POLYGON_API_KEY") whether the key came from there or from the config.
    public var apiKeyVariable: String

    public init(apiKey: String?, apiKeyVariable: String = "POLYGON_API_KEY") {
        self.apiKey = apiKey
        self.apiKeyVariable = apiKeyVariable
    }

    /// The key, unless it is missing or blank (an exported but empty variable counts as missing).
    var usableKey: String? {
        guard let key = apiKey?.trimmingCharacters(in: .whitespacesAndNewlines), !key.isEmpty else { return nil }
        return key
    }

    // Credentials end up in logs through string interpolation sooner or later; they never show the key.
    public var description: String {
        "PolygonCredentials(apiKey: \(usableKey == nil ? "none" : "<redacted>"), apiKeyVariable: \(apiKeyVariable))"
    }

    public var debugDescription: String { description }
}
