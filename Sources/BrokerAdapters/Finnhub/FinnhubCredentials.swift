/// Finnhub's API key, and the variable it comes from so messages can name what to fix.
public struct FinnhubCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public var token: String?
    /// Named in hints ("check FINNHUB_TOKEN") whether the key came from there or from the config.
    public var tokenVariable: String

    public init(token: String?, tokenVariable: String = "FINNHUB_TOKEN") {
        self.token = token
        self.tokenVariable = tokenVariable
    }

    /// The key, unless it is missing or blank (an exported but empty variable counts as missing).
    var usableToken: String? {
        guard let token = token?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty else { return nil }
        return token
    }

    // Credentials end up in logs through string interpolation sooner or later; they never show the key.
    public var description: String {
        "FinnhubCredentials(token: \(usableToken == nil ? "none" : "<redacted>"), tokenVariable: \(tokenVariable))"
    }

    public var debugDescription: String { description }
}
