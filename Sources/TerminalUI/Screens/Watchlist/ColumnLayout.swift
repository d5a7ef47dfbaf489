import Stores

/// Where each table column goes for a terminal width. Pure, so the degradation order on narrow
/// terminals is tested directly: the wide-terminal columns (spread, previous close) go first, then
/// volume, bid/ask, age, change (change % stays), then the broker name shrinks and finally becomes the
/// glyph alone. The sparkline goes before any of them. Spare width on a wide terminal goes to the broker's
/// name (up to its longest) and then to the sparkline (up to a cell per bucket), not to blank space.
struct ColumnLayout: Sendable, Hashable {
    enum Column: Sendable, Hashable, CaseIterable {
        case symbol, broker, last, change, changePercent, bid, ask, spread, disagreement, volume, previousClose, age, sparkline

        var heading: String {
            switch self {
            case .symbol: "symbol"
            case .broker: "broker"
            case .last: "last"
            case .change: "change"
            case .changePercent: "change %"
            case .bid: "bid"
            case .ask: "ask"
            case .spread: "spread"
            case .volume: "volume"
            case .previousClose: "prev close"
            case .age: "age"
            case .disagreement: "differ bp"
            case .sparkline: "trend"
            }
        }

        var isNumeric: Bool {
            switch self {
            case .symbol, .broker, .sparkline: false
            default: true
            }
        }

        /// Numbers keep a steady width so columns do not jump when a price gains a digit.
        var minimumWidth: Int {
            switch self {
            case .symbol: 6
            case .broker: 6
            case .last, .bid, .ask, .previousClose: 8
            case .change, .spread: 7
            case .changePercent: 8
            case .volume: 6
            case .age: 3
            case .disagreement: 9
            case .sparkline: 8
            }
        }

        var maximumWidth: Int {
            switch self {
            case .symbol: 15
            case .broker: 22
            case .sparkline: SparklineSeries.bucketCount
            default: 14
            }
        }
    }

    enum BrokerLabel: Sendable, Hashable {
        case glyphAndName
        case glyphOnly
    }

    struct Placement: Sendable, Hashable {
        var column: Column
        var x: Int
        var width: Int
        var end: Int { x + width }
    }

    static let margin = 1
    static let gap = 2
    /// Narrower than glyph, space and five characters, a broker name says little; the glyph alone does.
    static let shortestBrokerName = 7
    /// However long a broker's name, spare width stops here.
    static let widestBrokerName = 40

    var placements: [Placement]
    var brokerLabel: BrokerLabel

    func placement(of column: Column) -> Placement? {
        placements.first { $0.column == column }
    }

    var columns: [Column] { placements.map(\.column) }
    var end: Int { placements.last?.end ?? Self.margin }

    /// `demand` is the widest content per column (headings included); a column missing from it, or
    /// with 0, is not shown (e.g. volume when no broker sends it).
    /// `reserved` cells at the right edge are kept free of the wide-terminal extras (spread, previous
    /// close) only: the scroll position is worth more than they are, but not more than a core column.
    /// `order` is the columns' order from left to right (the config's `columns`); a column not in it is
    /// not shown. In the per-symbol view (`perSymbol`) the best bid and ask and the disagreement are what
    /// the row is for: change, age and the broker's name go before them.
    static func fit(
        demand: [Column: Int], width: Int, reserved: Int = 0, order: [Column] = Column.allCases, perSymbol: Bool = false
    ) -> ColumnLayout {
        var widths: [Column: Int] = [:]
        for column in order {
            guard let wanted = demand[column], wanted > 0 else { continue }
            widths[column] = min(column.maximumWidth, max(column.minimumWidth, column.heading.count, wanted))
        }
        var shown = order.filter { widths[$0] != nil }
        var brokerLabel = BrokerLabel.glyphAndName

        func total() -> Int {
            margin + shown.reduce(0) { $0 + widths[$1]! } + gap * max(0, shown.count - 1)
        }
        func drop(_ columns: Column...) {
            shown.removeAll { columns.contains($0) }
        }

        for extra in [Column.sparkline, .previousClose, .spread] where total() > width - reserved {
            drop(extra)
        }
        let squeezeBroker = {
            guard let broker = widths[.broker] else { return }
            let squeezed = broker - (total() - width)
            if squeezed >= shortestBrokerName {
                widths[.broker] = squeezed
            } else {
                widths[.broker] = 1
                brokerLabel = .glyphOnly
            }
        }
        let squeezeSymbol = {
            guard let symbol = widths[.symbol] else { return }
            widths[.symbol] = max(Column.symbol.minimumWidth, symbol - (total() - width))
        }
        let perSymbolSteps: [() -> Void] = [
            { drop(.volume) },
            { drop(.change) },
            { drop(.age) },
            squeezeBroker,
            { drop(.changePercent) },
            squeezeSymbol,
            { drop(.disagreement) },
            { drop(.bid, .ask) },
            { drop(.last) },
            { drop(.broker) },
        ]
        let perBrokerSteps: [() -> Void] = [
            { drop(.volume) },
            { drop(.disagreement) },
            { drop(.bid, .ask) },
            { drop(.age) },
            { drop(.change) },
            squeezeBroker,
            squeezeSymbol,
            { drop(.changePercent) },
            { drop(.last) },
            { drop(.broker) },
        ]
        for step in perSymbol ? perSymbolSteps : perBrokerSteps where total() > width {
            step()
        }
        if total() > width, widths[.symbol] != nil {
            widths[.symbol] = max(1, width - margin)
        }
        // Spare width: the broker's whole name first, then a longer sparkline.
        if brokerLabel == .glyphAndName, shown.contains(.broker), let broker = widths[.broker], let wanted = demand[.broker] {
            widths[.broker] = broker + max(0, min(min(wanted, widestBrokerName) - broker, width - reserved - total()))
        }
        if shown.contains(.sparkline), let sparkline = widths[.sparkline] {
            widths[.sparkline] = sparkline + max(0, min(Column.sparkline.maximumWidth - sparkline, width - reserved - total()))
        }

        var x = margin
        var placements: [Placement] = []
        for column in shown {
            placements.append(Placement(column: column, x: x, width: widths[column]!))
            x += widths[column]! + gap
        }
        return ColumnLayout(placements: placements, brokerLabel: brokerLabel)
    }
}
