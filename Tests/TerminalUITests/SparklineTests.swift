import Domain
import Testing
@testable import TerminalUI

/// The sparkline's scaling (issue 17, item 2): prices to ▁▂▃▄▅▆▇█, or ASCII.
@Suite struct SparklineTests {
    func prices(_ values: Int?...) -> [ExactDecimal?] {
        values.map { $0.map { ExactDecimal($0) } }
    }

    @Test func theLowestIsTheLowestBlockAndTheHighestTheTallest() {
        #expect(Sparkline.text(prices(1, 2, 3, 4, 5, 6, 7, 8), width: 8, unicode: true) == "▁▂▃▄▅▆▇█")
        #expect(Sparkline.text(prices(8, 1), width: 2, unicode: true) == "█▁")
        // Rounded half up in exact integers: 1 of 0…2 is 3.5 of 7 → 4.
        #expect(Sparkline.text(prices(0, 1, 2), width: 3, unicode: true) == "▁▅█")
    }

    /// Prices far apart or close together scale alike: only their place between low and high counts.
    @Test func extremesScaleWithoutOverflowOrLostPrecision() {
        let wide: [ExactDecimal?] = [ExactDecimal(units: -ExactDecimal.max.units), .max]
        #expect(Sparkline.text(wide, width: 2, unicode: true) == "▁█")
        let close: [ExactDecimal?] = [ExactDecimal(units: 1), ExactDecimal(units: 2), ExactDecimal(units: 1)]
        #expect(Sparkline.text(close, width: 3, unicode: true) == "▁█▁")
    }

    /// A flat line sits in the middle: at the bottom it would read "fell", at the top "rose".
    @Test func aFlatSeriesAndASinglePriceSitInTheMiddle() {
        #expect(Sparkline.text(prices(10, 10, 10), width: 3, unicode: true) == "▄▄▄")
        #expect(Sparkline.text(prices(nil, nil, 10), width: 3, unicode: true) == "  ▄")
    }

    @Test func noPriceYetIsBlank() {
        #expect(Sparkline.text(prices(nil, nil, nil), width: 3, unicode: true) == "   ")
        #expect(Sparkline.text(prices(nil, 5, 6), width: 3, unicode: true) == " ▁█")
    }

    @Test func asciiWhenTheTerminalIsNotUTF8() {
        #expect(Sparkline.text(prices(1, 2, 3, 4, 5, 6, 7, 8), width: 8, unicode: false) == "__.--~^^")
        #expect(Sparkline.text(prices(10, 10), width: 2, unicode: false) == "--")
        #expect(Sparkline.text(prices(1, 2, 3, 4, 5, 6, 7, 8), width: 8, unicode: false).allSatisfy { $0.isASCII })
    }

    /// Fewer cells than buckets: each cell shows the last bucket of its share, so the newest price is
    /// always the last cell and the oldest share's end the first.
    @Test func narrowSparklinesShowEachShareItsLastBucket() {
        #expect((0..<10).map { Sparkline.bucket(ofCell: $0, width: 10, count: 30) } == [2, 5, 8, 11, 14, 17, 20, 23, 26, 29])
        #expect((0..<4).map { Sparkline.bucket(ofCell: $0, width: 4, count: 30) } == [6, 14, 21, 29])
        // The drawing samples exactly the buckets `bucket(ofCell:)` names, at every width: those hold 100,
        // the rest 0, so a wrong bucket would show as a low cell in an otherwise flat line.
        for width in 1...30 {
            let shown = Set((0..<width).map { Sparkline.bucket(ofCell: $0, width: width, count: 30) })
            let buckets = (0..<30).map { ExactDecimal(shown.contains($0) ? 100 : 0) as ExactDecimal? }
            #expect(Sparkline.text(buckets, width: width, unicode: false) == String(repeating: "-", count: width), "width \(width)")
        }
        #expect(Sparkline.text(prices(1, 9, 2, 9, 3, 9), width: 3, unicode: true) == "▄▄▄", "only the second of each pair is shown")
        #expect(Sparkline.text(prices(9, 1, 9, 2, 9, 3), width: 3, unicode: true) == "▁▅█")
        #expect(Sparkline.text(prices(1, 2), width: 5, unicode: true) == "▁█", "never wider than the buckets")
    }
}
