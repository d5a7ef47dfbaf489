import Domain
import TerminalKit

/// A row's price over the last minutes as one line of cells: `▁▂▃▄▅▆▇█`, or `_.-~^` when the terminal
/// is not UTF-8. Pure: prices and a width in, one character per cell out (a blank before the first price).
///
/// Scaling: the lowest price shown is the lowest block and the highest the tallest, each price at
/// `(price − low) × 7 ÷ (high − low)` rounded half up, in exact integers; a flat line (one price, or
/// every price equal) sits at the middle block, since the bottom would read as "fell" and the top as "rose".
enum Sparkline {
    /// ▁▂▃▄▅▆▇█
    static let blocks: [UInt32] = Array(0x2581...0x2588)
    /// The same eight heights in ASCII: a low and a high line, a dot, a dash, a tilde and a caret.
    static let ascii: [UInt32] = ["_", "_", ".", "-", "-", "~", "^", "^"].map { UInt32(Character($0).asciiValue!) }
    static let levels = 8
    /// Where a flat series is drawn.
    static let middle = 3
    /// Marks "no price yet".
    static let missing = Int64.min

    /// The level (0…7) of each price in units, scaled between the lowest and the highest of them; -1
    /// where there is no price. Writes into `levels`, which has room for `units.count`.
    ///
    /// No division per price: a frame scales 30 prices on each of 1,000 rows, and a 128-bit division each
    /// cost more than the rest of the row. The level is how many of the thresholds k × 2 × span
    /// (k = 1…7) the doubled, offset price 2 × (price − low) × 7 + span reaches, which is the rounded
    /// quotient without dividing.
    static func scale(_ units: UnsafeBufferPointer<Int64>, into levels: UnsafeMutableBufferPointer<Int8>) {
        var low = Int64.max
        var high = Int64.min
        for value in units where value != missing {
            low = min(low, value)
            high = max(high, value)
        }
        let span = Int128(high) - Int128(low)
        for (index, value) in units.enumerated() {
            guard value != missing else {
                levels[index] = -1
                continue
            }
            guard span > 0 else {
                levels[index] = Int8(middle)
                continue
            }
            // Within 64 bits for any span a price range can have in practice; 128 bits for the rest.
            if span <= Int128(Int64.max / 16) {
                let span = Int64(span)
                let scaled = 2 * (value - Int64(low)) * Int64(Self.levels - 1) + span
                var level: Int8 = 0
                var threshold = 2 * span
                while level < Int8(Self.levels - 1), scaled >= threshold {
                    level += 1
                    threshold += 2 * span
                }
                levels[index] = level
            } else {
                levels[index] = Int8((2 * (Int128(value) - Int128(low)) * Int128(Self.levels - 1) + span) / (2 * span))
            }
        }
    }

    /// The bucket shown by each of `width` cells from `count` buckets (oldest first): a cell stands for an
    /// equal share of the window and shows its share's last bucket, so the newest price is always the
    /// last cell. `width` is at most `count`.
    static func bucket(ofCell cell: Int, width: Int, count: Int) -> Int {
        (cell + 1) * count / width - 1
    }

    /// The characters of a sparkline `width` cells wide (at most the bucket count) over `buckets` (prices
    /// in units, oldest first, `missing` before the first), written into `cells` (room for `width`): a
    /// space where there is no price yet. Returns how many cells it wrote.
    @discardableResult
    static func draw(
        _ buckets: UnsafeBufferPointer<Int64>, width: Int, unicode: Bool, into cells: UnsafeMutableBufferPointer<UInt32>
    ) -> Int {
        let width = min(width, buckets.count, cells.count)
        guard width > 0 else { return 0 }
        withUnsafeTemporaryAllocation(of: Int64.self, capacity: width) { samples in
            // `bucket(ofCell:)` stepped by its quotient and remainder: one division a row, not one a cell.
            let (step, extra) = buckets.count.quotientAndRemainder(dividingBy: width)
            var end = 0
            var remainder = 0
            for cell in 0..<width {
                end += step
                remainder += extra
                if remainder >= width {
                    remainder -= width
                    end += 1
                }
                samples.initializeElement(at: cell, to: buckets[end - 1])
            }
            withUnsafeTemporaryAllocation(of: Int8.self, capacity: width) { levels in
                levels.initialize(repeating: -1)
                scale(UnsafeBufferPointer(samples), into: levels)
                let characters = unicode ? blocks : ascii
                characters.withUnsafeBufferPointer { characters in
                    for cell in 0..<width {
                        cells[cell] = levels[cell] >= 0 ? characters[Int(levels[cell])] : 0x20
                    }
                }
            }
            samples.deinitialize()
        }
        return width
    }

    /// `draw` as text, blanks included: for tests, and for anything that is not a frame.
    static func text(_ prices: [ExactDecimal?], width: Int, unicode: Bool) -> String {
        let units = prices.map { $0?.units ?? missing }
        var cells = [UInt32](repeating: 0x20, count: max(0, width))
        let written = units.withUnsafeBufferPointer { buckets in
            cells.withUnsafeMutableBufferPointer { cells in draw(buckets, width: width, unicode: unicode, into: cells) }
        }
        return String(String.UnicodeScalarView(cells.prefix(written).map { Unicode.Scalar($0)! }))
    }
}
