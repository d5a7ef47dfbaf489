import Interactors

extension ColumnLayout.Column {
    /// The table's column for a column the config names.
    init(_ column: WatchlistColumn) {
        switch column {
        case .symbol: self = .symbol
        case .broker: self = .broker
        case .last: self = .last
        case .change: self = .change
        case .changePercent: self = .changePercent
        case .bid: self = .bid
        case .ask: self = .ask
        case .spread: self = .spread
        case .disagreement: self = .disagreement
        case .volume: self = .volume
        case .previousClose: self = .previousClose
        case .age: self = .age
        case .sparkline: self = .sparkline
        }
    }
}
