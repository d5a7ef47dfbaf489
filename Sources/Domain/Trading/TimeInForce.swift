/// How long an unfilled order stays working.
public enum TimeInForce: String, Sendable, Hashable, Codable, CaseIterable {
    /// Until the close of the session it was placed for, then expired.
    case day
    /// Good till cancelled: until filled or cancelled.
    case gtc
}
