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

    /// The level (0…7) of each price in units, scaled between the lowest and the highest of them; nil
    /// where there is no price. Writes into `levels`, which has room for `units.count`.
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
            // Rounded half up: (2 × (value − low) × 7 + span) ÷ (2 × span).
            let scaled = (2 * (Int128(value) - Int128(low)) * Int128(Self.levels - 1) + span) / (2 * span)
            levels[index] = Int8(scaled)
        }
    }

    /// The bucket shown by each of `width` cells from `count` buckets (oldest first): a cell stands for an
    /// equal share of the window and shows its share's last bucket, so the newest price is always the
    /// last cell. `width` is at most `count`.
    static func bucket(ofCell cell: Int, width: Int, count: Int) -> Int {
        (cell + 1) * count / width - 1
    }

    /// The characters of a sparkline `width` cells wide (at most the bucket count) over `buckets` (prices
    /// in units, oldest first, `missing` before the first), handed to `put` with their cell index; a
    /// cell with no price is skipped (left blank).
    static func draw(
        _ buckets: UnsafeBufferPointer<Int64>, width: Int, unicode: Bool, _ put: (_ cell: Int, _ scalar: UInt32) -> Void
    ) {
        let width = min(width, buckets.count)
        guard width > 0 else { return }
        withUnsafeTemporaryAllocation(of: Int64.self, capacity: width) { samples in
            for cell in 0..<width {
                samples.initializeElement(at: cell, to: buckets[bucket(ofCell: cell, width: width, count: buckets.count)])
            }
            withUnsafeTemporaryAllocation(of: Int8.self, capacity: width) { levels in
                levels.initialize(repeating: -1)
                scale(UnsafeBufferPointer(samples), into: levels)
                let characters = unicode ? blocks : ascii
                for cell in 0..<width where levels[cell] >= 0 {
                    put(cell, characters[Int(levels[cell])])
                }
            }
            samples.deinitialize()
        }
    }

    /// `draw` as text, blanks included: for tests, and for anything that is not a frame.
    static func text(_ prices: [ExactDecimal?], width: Int, unicode: Bool) -> String {
        let units = prices.map { $0?.units ?? missing }
        var cells = [Character](repeating: " ", count: min(width, units.count))
        units.withUnsafeBufferPointer { buckets in
            draw(buckets, width: width, unicode: unicode) { cell, scalar in
                cells[cell] = Character(Unicode.Scalar(scalar)!)
            }
        }
        return String(cells)
    }
}
