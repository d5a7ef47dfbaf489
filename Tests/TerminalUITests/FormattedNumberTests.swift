import Domain
import Foundation
import Testing
import TerminalKit
@testable import TerminalUI

/// The table measures numbers before drawing them and then spells them straight into the frame:
/// the width must be what gets drawn, and drawing must put the same cells where writing the text would.
@Suite struct FormattedNumberTests {
    static let values: [Double] = [
        0, 0.004, -0.004, 0.005, 0.0123, -0.5, 1, 9.995, 99.99, 100, 189.84, -1_234.5678, 999_999.995,
        1e15, 8.9e15, 9.5e15, 1e20, -1e20, .nan, .infinity, -.infinity,
    ]

    static var numbers: [FormattedNumber] {
        values.flatMap { value in
            [
                QuoteFormatting.priceNumber(value), QuoteFormatting.changeNumber(value, decimals: 4),
                QuoteFormatting.percentNumber(value), FormattedNumber(value, decimals: 0),
            ]
        } + [Int64(-1), 0, 950, 999_949, 999_950, 12_345_678, .max].map(QuoteFormatting.volumeNumber)
            + [nil, 0, 59, 61, 7_200, 200_000].map { seconds in
                let now = Date(timeIntervalSince1970: 1_000_000)
                return QuoteFormatting.ageNumber(since: seconds.map { now.addingTimeInterval(-$0) }, now: now)
            }
    }

    static func text(_ number: FormattedNumber) -> String {
        var scalars: [UInt32] = []
        number.append(to: &scalars)
        return String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init)))
    }

    @Test func widthIsWhatIsSpelled() {
        for number in Self.numbers {
            #expect(Self.text(number).unicodeScalars.count == number.width, "\(Self.text(number))")
        }
    }

    @Test func spellsAsTheStringFormattersDo() {
        #expect(Self.text(QuoteFormatting.priceNumber(189.84)) == QuoteFormatting.price(189.84))
        #expect(Self.text(QuoteFormatting.changeNumber(-0.45)) == "-0.45")
        #expect(Self.text(QuoteFormatting.percentNumber(1.234)) == "+1.23%")
        #expect(Self.text(QuoteFormatting.volumeNumber(999_950)) == "1.0M")
        #expect(Self.text(FormattedNumber(1e20, decimals: 2)) == String(format: "%.2f", 1e20))
        #expect(Self.text(FormattedNumber(-1e20, decimals: 1, sign: .unlessZero, suffix: 0x25)) == "-" + String(format: "%.1f", 1e20) + "%")
        #expect(Self.text(.missing) == "—")
    }

    /// Rounding is done without libm; it must still be `rounded()`'s, halves away from zero included.
    @Test func roundsAsDoubleRoundedDoes() {
        var generator = SplitMix64(seed: 42)
        var values: [Double] = [0.125, 2.5, 0.5, 1.5, 0.49999999999999994, 4_503_599_627_370_495.5, 8.99e15, 0.005, 1.005]
        for _ in 0..<5_000 {
            values.append(Double(generator.next() % 10_000_000) / 1_000 * (generator.next() % 2 == 0 ? 1 : -1))
        }
        for value in values {
            for decimals in [0, 1, 2, 4] {
                let number = FormattedNumber(value, decimals: decimals)
                let expected = (abs(value) * pow(10, Double(decimals))).rounded()
                if expected < 9e15 {
                    #expect(number.kind == .digits && Double(number.units) == expected, "\(value) to \(decimals) places")
                } else {
                    #expect(number.kind == .huge, "\(value) to \(decimals) places")
                }
            }
        }
    }

    /// Right-aligned at every end column, including ones that clip the number on either side.
    @Test func drawingMatchesWritingTheText() {
        let columns = 12
        let style = CellCode.bits(Style(foreground: .green, bold: true))
        for number in Self.numbers {
            let text = Self.text(number)
            for end in -2...(columns + 3) {
                var drawn = ScreenBuffer(size: ScreenSize(columns: columns, rows: 2))
                drawn.write(number, endingAt: end, row: 1, style: style)
                var written = ScreenBuffer(size: ScreenSize(columns: columns, rows: 2))
                let scalars = text.unicodeScalars.map(\.value)
                let start = end - scalars.count
                // Cells left of the screen are skipped, not shifted: the writer clips what it is given.
                let visible = scalars.dropFirst(max(0, -start))
                written.write(scalars: visible, column: max(0, start), row: 1, style: style, maxWidth: max(0, min(columns, end) - max(0, start)))
                #expect(drawn == written, "\(text) ending at \(end)")
            }
        }
    }
}
