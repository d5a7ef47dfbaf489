/// Where the US equity market is in its day (New York time): pre-market 04:00–09:30, the regular session
/// 09:30–16:00 (13:00 on early-close days), after hours until 20:00 (17:00 on early-close days), closed
/// otherwise and all day on weekends and exchange holidays.
///
/// Not named `MarketSession`: PaperTrading already has a `MarketSession` (the hours its paper broker
/// fills in), and a module that imports both would find the name ambiguous.
public enum MarketPhase: String, Sendable, Hashable, CaseIterable {
    case preMarket
    /// The regular session: the NYSE's opening auction to its closing auction.
    case open
    case afterHours
    case closed
}
