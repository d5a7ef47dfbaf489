/// A column of the watchlist table, by the name the config's `columns` uses. The table shows the columns
/// the config lists, in its order (`defaultOrder` without one); narrow terminals still drop them in the
/// table's own order of importance, whatever their place.
public enum WatchlistColumn: String, Sendable, Hashable, CaseIterable {
    case symbol, broker, last, change, changePercent, bid, ask, spread, disagreement, volume, previousClose, age, sparkline

    /// Every column: the order of the table before the config could choose.
    public static let defaultOrder: [WatchlistColumn] = allCases

    /// The names the config accepts, for error messages.
    public static var names: [String] { allCases.map(\.rawValue) }
}
