/// Where each table column goes for a terminal width. Pure, so the degradation order on narrow
/// terminals is tested directly: the wide-terminal columns (spread, previous close) go first, then
/// volume, bid/ask, age, change (change % stays), then the broker name shrinks and finally becomes the
/// glyph alone.
struct ColumnLayout: Sendable, Hashable {
    enum Column: Sendable, Hashable, CaseIterable {
        case symbol, broker, last, change, changePercent, bid, ask, spread, volume, previousClose, age

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
            }
        }

        var isNumeric: Bool {
            switch self {
            case .symbol, .broker: false
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
            }
        }

        var maximumWidth: Int {
            switch self {
            case .symbol: 15
            case .broker: 22
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
    static func fit(demand: [Column: Int], width: Int, reserved: Int = 0) -> ColumnLayout {
        var widths: [Column: Int] = [:]
        for column in Column.allCases {
            guard let wanted = demand[column], wanted > 0 else { continue }
            widths[column] = min(column.maximumWidth, max(column.minimumWidth, column.heading.count, wanted))
        }
        var shown = Column.allCases.filter { widths[$0] != nil }
        var brokerLabel = BrokerLabel.glyphAndName

        func total() -> Int {
            margin + shown.reduce(0) { $0 + widths[$1]! } + gap * max(0, shown.count - 1)
        }
        func drop(_ columns: Column...) {
            shown.removeAll { columns.contains($0) }
        }

        for extra in [Column.previousClose, .spread] where total() > width - reserved {
            drop(extra)
        }
        let steps: [() -> Void] = [
            { drop(.volume) },
            { drop(.bid, .ask) },
            { drop(.age) },
            { drop(.change) },
            {
                guard let broker = widths[.broker] else { return }
                let squeezed = broker - (total() - width)
                if squeezed >= shortestBrokerName {
                    widths[.broker] = squeezed
                } else {
                    widths[.broker] = 1
                    brokerLabel = .glyphOnly
                }
            },
            {
                guard let symbol = widths[.symbol] else { return }
                widths[.symbol] = max(Column.symbol.minimumWidth, symbol - (total() - width))
            },
            { drop(.changePercent) },
            { drop(.last) },
            { drop(.broker) },
        ]
        for step in steps where total() > width {
            step()
        }
        if total() > width, widths[.symbol] != nil {
            widths[.symbol] = max(1, width - margin)
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
