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
