/// An Alpaca API key pair and the market-data feed to ask for. The variable names are the ones Alpaca's
/// own SDKs and CLI read, so keys a user already exported just work; they also name what to fix in errors.
public struct AlpacaCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    public var keyID: String?
    public var secretKey: String?
    public var keyIDVariable: String
    public var secretKeyVariable: String
    /// `iex` (free plans), `sip`, `delayed_sip`, `boats`, `overnight` or `otc` (reference §3.1). Free plans
    /// asking for `sip` get 403.
    public var feed: String

    public init(
        keyID: String?, secretKey: String?,
        keyIDVariable: String = "APCA_API_KEY_ID", secretKeyVariable: String = "APCA_API_SECRET_KEY",
        feed: String = "iex"
    ) {
        self.keyID = keyID
        self.secretKey = secretKey
        self.keyIDVariable = keyIDVariable
        self.secretKeyVariable = secretKeyVariable
        self.feed = feed
    }

    /// These credentials with each missing or empty value read from its variable in `environment`.
    /// Values given explicitly (from the config) win over the environment.
    public func resolved(from environment: [String: String]) -> AlpacaCredentials {
        var copy = self
        if copy.keyID?.isEmpty ?? true { copy.keyID = environment[keyIDVariable] }
        if copy.secretKey?.isEmpty ?? true { copy.secretKey = environment[secretKeyVariable] }
        return copy
    }

    /// What to check when Alpaca rejects the keys.
    public var credentialHint: String { "check \(keyIDVariable) and \(secretKeyVariable)" }

    /// The variable(s) to set when a value is missing; nil when both are present.
    var missingVariable: String? {
        switch (keyID?.isEmpty ?? true, secretKey?.isEmpty ?? true) {
        case (true, true): "\(keyIDVariable) and \(secretKeyVariable)"
        case (true, false): keyIDVariable
        case (false, true): secretKeyVariable
        case (false, false): nil
        }
    }

    /// Values at least this long are scrubbed from error texts; shorter ones would match innocent text.
    static let minimumScrubbedLength = 4

    /// Secret values worth scrubbing from anything shown to the user.
    var secretValues: [String] {
        [keyID, secretKey].compactMap { $0 }.filter { $0.count >= Self.minimumScrubbedLength }
    }

    // Printing or dumping credentials must never show the keys.
    public var description: String {
        "AlpacaCredentials(keyID: \(keyID == nil ? "nil" : "<redacted>"), secretKey: \(secretKey == nil ? "nil" : "<redacted>"), "
            + "keyIDVariable: \(keyIDVariable), secretKeyVariable: \(secretKeyVariable), feed: \(feed))"
    }

    public var customMirror: Mirror {
        Mirror(self, children: [
            "keyID": keyID == nil ? "nil" : "<redacted>", "secretKey": secretKey == nil ? "nil" : "<redacted>",
            "keyIDVariable": keyIDVariable, "secretKeyVariable": secretKeyVariable, "feed": feed,
        ])
    }
}
