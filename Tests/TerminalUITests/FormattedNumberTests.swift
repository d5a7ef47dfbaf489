import Domain
import Foundation
import Testing
import TerminalKit
@testable import TerminalUI

/// The table measures numbers before drawing them and then spells them straight into the frame:
/// the width must be what gets drawn, and drawing must put the same cells where writing the text would.
@Suite struct FormattedNumberTests {
    static let values: [ExactDecimal] = [
        "0", "0.004", "-0.004", "0.005", "0.0123", "-0.5", "1", "9.995", "99.99", "100", "189.84", "-1234.5678", "999999.995",
        "0.00000001", "-0.00000001", "89999999999.99999999",
    ].map(exactDecimal) + [.max, -.max]

    static var numbers: [FormattedNumber] {
        values.flatMap { value in
            [
                QuoteFormatting.priceNumber(value), QuoteFormatting.changeNumber(value, decimals: 4),
                QuoteFormatting.percentNumber(value), FormattedNumber(value, decimals: 0), FormattedNumber(value, decimals: 8),
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
        #expect(Self.text(QuoteFormatting.priceNumber(exactDecimal("189.84"))) == QuoteFormatting.price(exactDecimal("189.84")))
        #expect(Self.text(QuoteFormatting.changeNumber(exactDecimal("-0.45"))) == "-0.45")
        #expect(Self.text(QuoteFormatting.percentNumber(exactDecimal("1.234"))) == "+1.23%")
        #expect(Self.text(QuoteFormatting.volumeNumber(999_950)) == "1.0M")
        #expect(Self.text(QuoteFormatting.volumeNumber(.max)) == "9223372T")
        #expect(Self.text(QuoteFormatting.volumeNumber(12_350)) == "12.4K", "an exact half goes up")
        #expect(Self.text(FormattedNumber(.max, decimals: 8)) == "90000000000.00000000")
        #expect(Self.text(FormattedNumber(-.max, decimals: 1, sign: .unlessZero, suffix: 0x25)) == "-90000000000.0%")
        #expect(Self.text(.missing) == "—")
    }

    /// Rounding to fewer places is half away from zero, as `ExactDecimal.rounded(toScale:rule:)` does it.
    @Test func roundsHalfAwayFromZero() {
        var generator = SplitMix64(seed: 42)
        var values = ["0.125", "2.5", "0.5", "1.5", "0.49999999", "0.005", "1.005", "-0.005", "89999999999.99999995"].map(exactDecimal)
        for _ in 0..<5_000 {
            values.append(ExactDecimal(units: Int64(generator.next() % 10_000_000_000_000) * (generator.next() % 2 == 0 ? 1 : -1)))
        }
        for value in values {
            for decimals in 0...8 {
                let number = FormattedNumber(value, decimals: decimals)
                let expected = value.rounded(toScale: decimals, rule: .toNearestOrAwayFromZero).units.magnitude
                let step = (decimals..<8).reduce(UInt64(1)) { power, _ in power * 10 }
                #expect(number.kind == .digits && number.units * step == expected, "\(value) to \(decimals) places")
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
