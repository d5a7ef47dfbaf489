import TerminalKit
import TerminalUI

extension ScreenBuffer {
    /// The cells showing the first occurrence of `text` on `row`, or [] when it is not there.
    func cells(showing text: String, row: Int) -> [Cell] {
        let line = Array(lines[row])
        let needle = Array(text)
        guard needle.count <= line.count else { return [] }
        for start in 0...(line.count - needle.count) where Array(line[start..<(start + needle.count)]) == needle {
            return (start..<(start + needle.count)).map { self[start + ($0 - start), row] }
        }
        return []
    }

    func cells(row: Int) -> [Cell] {
        (0..<size.columns).map { self[$0, row] }
    }

    var allCells: [Cell] {
        (0..<size.rows).flatMap { cells(row: $0) }
    }
}
