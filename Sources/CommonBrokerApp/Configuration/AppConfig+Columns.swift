import Interactors
import Stores

extension AppConfig {
    /// The sparkline's window: at most the price history's span, which it is drawn from.
    public static let sparklineMinutesRange = 1...Int(PriceHistory.span / 60)

    /// `columns`: the watchlist's columns, in order, by name, e.g. `["symbol", "broker", "last", "bid",
    /// "ask", "sparkline"]`. Each name once; `symbol` is required (a row must say what it quotes).
    static func columns(_ value: JSONValue, at keyPath: String, reader: ConfigReader) throws(ConfigError) -> [WatchlistColumn] {
        let names = WatchlistColumn.names
        guard let elements = value.arrayValue else {
            throw reader.wrongType(value, at: keyPath, expected: "an array of column names such as [\"symbol\", \"broker\", \"last\"]")
        }
        var columns: [WatchlistColumn] = []
        for (index, element) in elements.enumerated() {
            let elementPath = "\(keyPath)[\(index)]"
            let column = try reader.choice(element, at: elementPath, among: WatchlistColumn.allCases)
            if let first = columns.firstIndex(of: column) {
                throw reader.invalid(
                    element, at: elementPath,
                    "repeats \"\(column.rawValue)\" (already \(keyPath)[\(first)]); list each column once, from: \(names.joined(separator: ", "))")
            }
            columns.append(column)
        }
        guard columns.contains(.symbol) else {
            throw reader.invalid(
                value, at: keyPath, "has no \"symbol\"; a row must say what it quotes: add \"symbol\" (the columns are: \(names.joined(separator: ", ")))")
        }
        return columns
    }
}
