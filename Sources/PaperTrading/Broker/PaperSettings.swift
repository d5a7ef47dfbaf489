import Domain
import Foundation

/// What the config says about the paper broker (the config's own parsing fills this in).
public struct PaperSettings: Sendable, Hashable {
    /// The demo's first broker, "Alpha Demo" (`DemoBrokerCatalog.alpha` in BrokerAdapters, which this
    /// module does not see): the source when the config names none.
    public static let defaultSourceBrokerID = "demo-alpha"

    /// The broker whose quotes fill the orders (`ServiceBranding.id`): only its quotes count.
    public var sourceBrokerID: String
    /// The balance a new ledger opens with. An existing ledger keeps the balance it was opened with
    /// (`PaperAccountOpened`): start a new ledger file for a new balance.
    public var startingCash: ExactDecimal
    public var commissionPerShare: ExactDecimal
    public var minimumCommissionPerOrder: ExactDecimal
    /// Allows `sellShort`; off unless the config turns it on.
    public var allowShort: Bool
    /// The ledger file, created (mode 0600, its directory 0700) when missing.
    public var ledgerURL: URL
    /// When orders may fill and when day orders expire.
    public var session: MarketSession
    /// How often the broker reads what other instances appended and expires day orders.
    public var refreshInterval: Duration
    /// How long `place` waits for a first quote of a symbol the broker was not following, when the order
    /// needs a price to be judged (a market order); then it is refused for want of a price.
    public var quoteWait: Duration

    public init(
        ledgerURL: URL, sourceBrokerID: String = PaperSettings.defaultSourceBrokerID,
        startingCash: ExactDecimal = 100_000, commissionPerShare: ExactDecimal = 0,
        minimumCommissionPerOrder: ExactDecimal = 0, allowShort: Bool = false,
        session: MarketSession = .usRegularHours, refreshInterval: Duration = .seconds(2),
        quoteWait: Duration = .seconds(5)
    ) {
        self.ledgerURL = ledgerURL
        self.sourceBrokerID = sourceBrokerID
        self.startingCash = startingCash
        self.commissionPerShare = commissionPerShare
        self.minimumCommissionPerOrder = minimumCommissionPerOrder
        self.allowShort = allowShort
        self.session = session
        self.refreshInterval = refreshInterval
        self.quoteWait = quoteWait
    }

    /// The account's rules from these settings.
    var accountConfiguration: PaperAccount.Configuration {
        PaperAccount.Configuration(
            startingCash: startingCash,
            commission: CommissionSchedule(perShare: commissionPerShare, minimumPerOrder: minimumCommissionPerOrder),
            allowShort: allowShort)
    }
}
