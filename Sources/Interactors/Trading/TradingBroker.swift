import Domain

/// A broker the app can trade with, as the screens need to know it.
public struct TradingBroker: Sendable, Hashable {
    public var branding: ServiceBranding
    /// Its orders reach a production account (the config's `trading.allowLive`): the ticket asks for the
    /// symbol again and the header says LIVE TRADING.
    public var isLive: Bool
    /// The broker whose quotes price its orders: the paper broker's source, a real broker's own id.
    public var quoteSourceID: String
    /// What an order costs, when the app knows (the paper broker's schedule); nil for a real broker's own.
    public var commission: Commission?

    public struct Commission: Sendable, Hashable {
        public var perShare: ExactDecimal
        public var minimumPerOrder: ExactDecimal

        public init(perShare: ExactDecimal, minimumPerOrder: ExactDecimal) {
            self.perShare = perShare
            self.minimumPerOrder = minimumPerOrder
        }

        /// The larger of `perShare × quantity` and the minimum, to the cent, half up as brokers bill.
        public func amount(for quantity: ExactDecimal) -> ExactDecimal? {
            guard let perShares = try? perShare.multiplied(by: quantity.magnitude) else { return nil }
            return max(perShares, minimumPerOrder).rounded(toScale: 2, rule: .toNearestOrAwayFromZero)
        }
    }

    public init(branding: ServiceBranding, isLive: Bool = false, quoteSourceID: String? = nil, commission: Commission? = nil) {
        self.branding = branding
        self.isLive = isLive
        self.quoteSourceID = quoteSourceID ?? branding.id
        self.commission = commission
    }
}
