import TerminalKit
/// What the screen shows when the terminal is smaller than `WatchlistScreen.minimumSize`.
struct TooSmallNotice {
    let minimum: ScreenSize
    let palette: Palette

    func draw(into buffer: inout ScreenBuffer) {
        let size = buffer.size
        guard size.columns > 0, size.rows > 0 else { return }
        let need = "need \(minimum.columns)×\(minimum.rows), have \(size.columns)×\(size.rows)"
        let oneLine = "Terminal too small: " + need
        let lines = TerminalText.width(oneLine) <= size.columns || size.rows == 1 ? [oneLine] : ["Terminal too small", need]
        let top = max(0, (size.rows - lines.count) / 2)
        for (offset, line) in lines.enumerated() {
            let cells = TerminalText.truncatedCells(line, toWidth: size.columns)
            let style = offset == 0 ? Style(bold: true) : palette.plain
            buffer.write(cells: cells, column: (size.columns - cells.count) / 2, row: top + offset, style: style)
        }
    }
}
