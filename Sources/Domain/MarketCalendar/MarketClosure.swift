/// A weekday the exchange does not open: a holiday its rules give (on the day it is observed), or a
/// one-off closure it announced (a national day of mourning, a storm).
public struct MarketClosure: Sendable, Hashable, CustomStringConvertible {
    public let date: CivilDate
    /// "Good Friday", "Christmas Day", "National Day of Mourning for President Jimmy Carter".
    public let name: String
    /// Announced by the exchange rather than computed by rule.
    public let isSpecial: Bool

    public init(date: CivilDate, name: String, isSpecial: Bool = false) {
        self.date = date
        self.name = name
        self.isSpecial = isSpecial
    }

    /// "2025-04-18 Good Friday".
    public var description: String { "\(date) \(name)" }
}
