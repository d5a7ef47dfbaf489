/// A JSON number as written. The literal text is kept because a `Double` cannot hold every 64-bit
/// integer (a random seed, say) and because error messages should echo what the user typed.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    public let literal: String
    public let doubleValue: Double

    public init?(literal: String) {
        guard let value = Double(literal), value.isFinite else { return nil }
        self.literal = literal
        self.doubleValue = value
    }

    /// The value as an `Int` when it is a whole number that fits: `30`, `30.0` and `3e1` all qualify.
    public var intValue: Int? {
        if let exact = Int(literal) { return exact }
        guard doubleValue.rounded() == doubleValue, abs(doubleValue) <= 9_007_199_254_740_992 else { return nil }
        return Int(doubleValue)
    }

    /// The value as a `UInt64`, exact for plain integer literals of any size up to `UInt64.max`.
    public var uint64Value: UInt64? {
        if let exact = UInt64(literal) { return exact }
        guard let int = intValue, int >= 0 else { return nil }
        return UInt64(int)
    }

    public var description: String { literal }
}
