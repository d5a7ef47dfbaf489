import TerminalKit
import Domain
import Foundation
import Interactors

/// A line chart of price series over a time window, drawn in braille cells (2 × 4 dots each) or, without
/// Unicode, one `*` per cell. Pure: series, window and area in, cells out. Each series keeps its brand
/// color; where two share a cell, the later one's color shows.
struct PriceChart {
    struct Series {
        var points: [PricePoint]
        var style: Style
    }

    let series: [Series]
    let start: Date
    let end: Date
    let unicode: Bool
    let palette: Palette

    /// Width of the price labels on the left.
    static let labelWidth = 10

    /// The price range the chart spans: every point in the window, widened a little (5 % of the span each
    /// side, or 0.1 % of the price and at least a cent for a flat line) so a flat line sits in the middle
    /// rather than on an edge. Exact; nil without points, or if the widened range leaves ±90,000,000,000.
    var priceRange: ClosedRange<ExactDecimal>? {
        let prices = series.flatMap { $0.points.filter { $0.time >= start }.map(\.price) }
        guard let low = prices.min(), let high = prices.max() else { return nil }
        let twentieth = ExactDecimal(units: ExactDecimal.unitsPerOne / 20)
        let thousandth = ExactDecimal(units: ExactDecimal.unitsPerOne / 1_000)
        let cent = ExactDecimal(units: ExactDecimal.unitsPerOne / 100)
        do {
            let pad = high > low ? try high.subtracting(low).multiplied(by: twentieth) : max(cent, try high.magnitude.multiplied(by: thousandth))
            return try low.subtracting(pad)...high.adding(pad)
        } catch {
            return nil
        }
    }

    /// The dot row of `price` in a plot `dotsHigh` dots high spanning `range` (0 at the top), rounded half
    /// up, in integers. `range` is not empty (`priceRange` pads it).
    static func dotRow(of price: ExactDecimal, in range: ClosedRange<ExactDecimal>, dotsHigh: Int) -> Int {
        let below = Int128(range.upperBound.units) - Int128(price.units)
        let span = Int128(range.upperBound.units) - Int128(range.lowerBound.units)
        guard span > 0 else { return 0 }
        return Int((2 * below * Int128(dotsHigh - 1) + span) / (2 * span))
    }

    /// Draws labels and plot into `rows` × the buffer's width; the bottom row holds the time axis.
    func draw(into buffer: inout ScreenBuffer, rows area: Range<Int>) {
        guard area.count >= 3, let range = priceRange else { return }
        let plotRows = area.lowerBound..<(area.upperBound - 1)
        let left = 1 + Self.labelWidth
        let plotColumns = left..<(buffer.size.columns - 1)
        guard plotColumns.count >= 4 else { return }

        // Price labels: top, middle, bottom.
        for (row, price) in [(plotRows.lowerBound, range.upperBound), (plotRows.lowerBound + plotRows.count / 2, ExactDecimal.midpoint(range.lowerBound, range.upperBound)), (plotRows.upperBound - 1, range.lowerBound)] {
            let label = QuoteFormatting.price(price)
            StyledText(String(repeating: " ", count: max(0, Self.labelWidth - 1 - label.count)) + label + " ", style: palette.muted)
                .draw(into: &buffer, column: 1, row: row)
        }
        for row in plotRows {
            buffer.write(cells: ["│"], column: left - 1, row: row, style: palette.muted)
        }

        let dotsWide = plotColumns.count * (unicode ? 2 : 1)
        let dotsHigh = plotRows.count * (unicode ? 4 : 1)
        let seconds = max(1, end.timeIntervalSince(start))
        var cells = [[UInt8]](repeating: [UInt8](repeating: 0, count: plotColumns.count), count: plotRows.count)
        var styles = [[Style?]](repeating: [Style?](repeating: nil, count: plotColumns.count), count: plotRows.count)

        func dot(_ x: Int, _ y: Int, _ style: Style) {
            guard (0..<dotsWide).contains(x), (0..<dotsHigh).contains(y) else { return }
            let (column, row) = unicode ? (x / 2, y / 4) : (x, y)
            cells[row][column] |= unicode ? Self.brailleBit(x: x % 2, y: y % 4) : 1
            styles[row][column] = style
        }
        for line in series {
            var previous: (x: Int, y: Int)?
            for point in line.points where point.time >= start {
                let x = Int((point.time.timeIntervalSince(start) / seconds * Double(dotsWide - 1)).rounded())
                let y = Self.dotRow(of: point.price, in: range, dotsHigh: dotsHigh)
                if let previous {
                    // Join to the previous point so a jump reads as a line, not two dots.
                    let steps = max(abs(x - previous.x), abs(y - previous.y))
                    for step in 0...max(1, steps) {
                        let t = Double(step) / Double(max(1, steps))
                        dot(previous.x + Int((Double(x - previous.x) * t).rounded()), previous.y + Int((Double(y - previous.y) * t).rounded()), line.style)
                    }
                } else {
                    dot(x, y, line.style)
                }
                previous = (x, y)
            }
        }
        for (offset, row) in plotRows.enumerated() {
            for (index, column) in plotColumns.enumerated() where cells[offset][index] != 0 {
                let character: Character = unicode ? Character(Unicode.Scalar(0x2800 + UInt32(cells[offset][index]))!) : "*"
                buffer.write(cells: [character], column: column, row: row, style: styles[offset][index] ?? .plain)
            }
        }

        // Time axis: how long ago the left edge is, and now at the right.
        let axisRow = area.upperBound - 1
        let ago = StyledText("-" + Self.duration(end.timeIntervalSince(start)), style: palette.muted)
        ago.draw(into: &buffer, column: left, row: axisRow)
        let now = StyledText("now", style: palette.muted)
        now.draw(into: &buffer, column: plotColumns.upperBound - now.width, row: axisRow)
    }

    /// Braille dot bits, columns then rows (Unicode's 8-dot order).
    static func brailleBit(x: Int, y: Int) -> UInt8 {
        switch (x, y) {
        case (0, 0): 0x01
        case (0, 1): 0x02
        case (0, 2): 0x04
        case (1, 0): 0x08
        case (1, 1): 0x10
        case (1, 2): 0x20
        case (0, 3): 0x40
        default: 0x80
        }
    }

    /// "45s", "5m", "30m".
    static func duration(_ seconds: TimeInterval) -> String {
        seconds < 90 ? "\(Int(seconds.rounded()))s" : "\(Int((seconds / 60).rounded()))m"
    }
}
