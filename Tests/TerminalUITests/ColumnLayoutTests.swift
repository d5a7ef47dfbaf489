import Testing
@testable import TerminalUI

@Suite struct ColumnLayoutTests {
    typealias Column = ColumnLayout.Column

    /// What the fixture's rows ask for: AAPL…ZZZZ, "γ Gamma Flaky", prices like 189.84, volume.
    let demand: [Column: Int] = [
        .symbol: 6, .broker: 13, .last: 6, .change: 5, .changePercent: 6, .bid: 6, .ask: 6, .volume: 5, .age: 3,
    ]

    @Test func wideTerminalShowsEveryColumnInOrder() {
        let layout = ColumnLayout.fit(demand: demand, width: 100)
        #expect(layout.columns == [.symbol, .broker, .last, .change, .changePercent, .bid, .ask, .volume, .age])
        #expect(layout.brokerLabel == .glyphAndName)
        #expect(layout.placement(of: .symbol) == .init(column: .symbol, x: 1, width: 6))
        #expect(layout.placement(of: .broker) == .init(column: .broker, x: 9, width: 13))
        #expect(layout.placement(of: .last) == .init(column: .last, x: 24, width: 8))
        #expect(layout.end == 84)
    }

    @Test func narrowingDropsColumnsInOrder() {
        let expectations: [(width: Int, columns: [Column], label: ColumnLayout.BrokerLabel)] = [
            (84, [.symbol, .broker, .last, .change, .changePercent, .bid, .ask, .volume, .age], .glyphAndName),
            (83, [.symbol, .broker, .last, .change, .changePercent, .bid, .ask, .age], .glyphAndName),
            (75, [.symbol, .broker, .last, .change, .changePercent, .age], .glyphAndName),
            (55, [.symbol, .broker, .last, .change, .changePercent], .glyphAndName),
            (50, [.symbol, .broker, .last, .changePercent], .glyphAndName),
            (36, [.symbol, .broker, .last, .changePercent], .glyphAndName),
            (35, [.symbol, .broker, .last, .changePercent], .glyphOnly),
            (20, [.symbol, .broker, .last], .glyphOnly),
            (12, [.symbol, .broker], .glyphOnly),
            (7, [.symbol], .glyphOnly),
        ]
        for expectation in expectations {
            let layout = ColumnLayout.fit(demand: demand, width: expectation.width)
            #expect(layout.columns == expectation.columns, "width \(expectation.width)")
            #expect(layout.brokerLabel == expectation.label, "width \(expectation.width)")
            #expect(layout.end <= expectation.width, "width \(expectation.width)")
        }
    }

    @Test func brokerNameShrinksBeforeItBecomesAGlyph() {
        let layout = ColumnLayout.fit(demand: demand, width: 40)
        #expect(layout.placement(of: .broker)?.width == 11)
        #expect(layout.brokerLabel == .glyphAndName)
        #expect(layout.end == 40)
    }

    @Test func symbolColumnIsSizedToContentUpToFifteen() {
        var wide = demand
        wide[.symbol] = 10
        #expect(ColumnLayout.fit(demand: wide, width: 100).placement(of: .symbol)?.width == 10)
        wide[.symbol] = 40
        #expect(ColumnLayout.fit(demand: wide, width: 100).placement(of: .symbol)?.width == 15)
        wide[.symbol] = 2
        #expect(ColumnLayout.fit(demand: wide, width: 100).placement(of: .symbol)?.width == 6)
    }

    @Test func numbersKeepAMinimumWidthAndGrowWithContent() {
        var big = demand
        big[.last] = 10
        #expect(ColumnLayout.fit(demand: big, width: 120).placement(of: .last)?.width == 10)
        big[.last] = 300
        #expect(ColumnLayout.fit(demand: big, width: 120).placement(of: .last)?.width == 14)
    }

    @Test func columnsWithoutDemandAreNotShown() {
        var noVolume = demand
        noVolume[.volume] = nil
        #expect(!ColumnLayout.fit(demand: noVolume, width: 100).columns.contains(.volume))
    }
}

/// Columns chosen and ordered by the config, the per-symbol view's priorities, the sparkline and spare
/// width (issue 17, items 1, 2 and 7).
@Suite struct ColumnLayoutChoiceTests {
    typealias Column = ColumnLayout.Column

    let demand: [Column: Int] = [
        .symbol: 6, .broker: 13, .last: 6, .change: 5, .changePercent: 6, .bid: 6, .ask: 6, .volume: 5, .age: 3,
        .sparkline: 8, .disagreement: 4,
    ]

    @Test func theConfiguredOrderIsTheOrderOnScreenAndOmittedColumnsAreHidden() {
        let layout = ColumnLayout.fit(demand: demand, width: 200, order: [.symbol, .sparkline, .last, .broker])
        #expect(layout.columns == [.symbol, .sparkline, .last, .broker])
    }

    /// The sparkline is the first column to go, before the other wide-terminal extras.
    @Test func theSparklineGoesFirst() {
        let all = ColumnLayout.fit(demand: demand, width: 200)
        #expect(all.columns.contains(.sparkline))
        let width = all.end - (all.placement(of: .sparkline)!.width - Column.sparkline.minimumWidth)
        #expect(ColumnLayout.fit(demand: demand, width: width).columns.contains(.sparkline))
        #expect(!ColumnLayout.fit(demand: demand, width: width - 1).columns.contains(.sparkline))
        #expect(ColumnLayout.fit(demand: demand, width: width - 1).columns.contains(.volume))
    }

    /// Spare width goes to the broker's whole name, then to the sparkline, up to a cell per bucket.
    @Test func spareWidthGoesToTheBrokerNameAndTheSparkline() {
        var long = demand
        long[.broker] = 30
        let layout = ColumnLayout.fit(demand: long, width: 200)
        #expect(layout.placement(of: .broker)?.width == 30, "a long name in full, beyond the usual 22")
        #expect(layout.placement(of: .sparkline)?.width == Column.sparkline.maximumWidth)
        let tight = ColumnLayout.fit(demand: long, width: layout.end - 5)
        #expect(tight.placement(of: .sparkline)?.width == Column.sparkline.maximumWidth - 5)
        #expect(tight.end == layout.end - 5, "no blank space left at the right")
        // Without a sparkline the rest stays blank: nothing else grows.
        var noSparkline = demand
        noSparkline[.sparkline] = nil
        #expect(ColumnLayout.fit(demand: noSparkline, width: 200).placement(of: .broker)?.width == 13)
    }

    /// The per-symbol view keeps the best bid and ask and the disagreement longer than change and age.
    @Test func thePerSymbolViewKeepsBidAskAndDisagreement() {
        var consolidated = demand
        consolidated[.bid] = 8
        consolidated[.ask] = 8
        let perSymbol = ColumnLayout.fit(demand: consolidated, width: 80, perSymbol: true)
        #expect(perSymbol.columns.contains(.bid) && perSymbol.columns.contains(.ask) && perSymbol.columns.contains(.disagreement))
        #expect(!perSymbol.columns.contains(.change))
        let perBroker = ColumnLayout.fit(demand: consolidated, width: 80)
        #expect(!perBroker.columns.contains(.disagreement))
    }
}
