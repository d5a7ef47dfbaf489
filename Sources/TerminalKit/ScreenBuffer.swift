/// A frame: a grid of cells that views draw into and the renderer diffs.
///
/// Cells are stored packed (see `CellCode`); `Cell` is how they look from outside. Two cells are the
/// same when their styles are and their characters have the same scalars (not merely canonically
/// equivalent ones: the terminal receives scalars).
public struct ScreenBuffer: Sendable, Hashable {
    public let size: ScreenSize
    /// Row-major, `size.columns` per row.
    @usableFromInline var codes: [UInt64]
    /// Characters of several scalars, which do not fit a code; almost always empty.
    private var graphemes: [Character] = []
    /// Where the terminal cursor should be shown (the add prompt), or nil to hide it.
    public var cursor: (column: Int, row: Int)? {
        get { cursorPosition.map { ($0.column, $0.row) } }
        set { cursorPosition = newValue.map { CursorPosition(column: $0.column, row: $0.row) } }
    }
    private var cursorPosition: CursorPosition?
    /// The palette entries this frame's truecolor theme gives RGB values of its own (none below
    /// truecolor, and none for the 8-color themes).
    public var colorDefinitions: [ColorDefinition] = []

    private struct CursorPosition: Sendable, Hashable {
        var column: Int
        var row: Int
    }

    public init(size: ScreenSize, fill: Cell = .blank) {
        self.size = size
        let count = max(0, size.columns) * max(0, size.rows)
        codes = []
        let code = encode(fill)
        codes = Array(repeating: code, count: count)
    }

    /// Every cell, row-major. Decodes the whole frame: for inspection, not for drawing.
    public var cells: [Cell] {
        codes.indices.map(cell(at:))
    }

    public subscript(column: Int, row: Int) -> Cell {
        get { cell(at: row * size.columns + column) }
        set {
            guard column >= 0, column < size.columns, row >= 0, row < size.rows else { return }
            codes[row * size.columns + column] = encode(newValue)
        }
    }

    public func cell(at index: Int) -> Cell {
        let code = codes[index]
        return Cell(character(of: code), style: CellCode.style(of: code))
    }

    public func character(of code: UInt64) -> Character {
        let value = CellCode.character(of: code)
        if value >= CellCode.graphemeBase { return graphemes[Int(value - CellCode.graphemeBase)] }
        return Unicode.Scalar(value).map(Character.init) ?? TerminalText.placeholder
    }

    /// True when every cell is one scalar, so codes compare exactly as cells do.
    public var codesAreCells: Bool { graphemes.isEmpty }

    private mutating func encode(_ cell: Cell) -> UInt64 {
        UInt64(characterCode(cell.character)) | CellCode.bits(cell.style)
    }

    private mutating func characterCode(_ character: Character) -> UInt32 {
        let scalars = character.unicodeScalars
        if let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return first.value
        }
        let index = graphemes.firstIndex { $0.unicodeScalars.elementsEqual(scalars) } ?? {
            graphemes.append(character)
            return graphemes.count - 1
        }()
        return CellCode.graphemeBase + UInt32(index)
    }

    /// Writes `text` from (column, row), clipped to `maxWidth` and the screen; returns the column after it.
    /// Every character takes exactly one cell (see `TerminalText.cells`): controls and wide characters
    /// become U+FFFD and zero-width ones are skipped, so nothing from outside can steer the terminal
    /// or shift a column.
    @discardableResult
    public mutating func write(_ text: String, column: Int, row: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        var text = text
        let printable = text.withUTF8 { bytes in
            bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? Array(bytes) : nil
        }
        // Printable ASCII is its own cells; anything else goes through the full treatment.
        if let printable {
            return write(scalars: printable, column: column, row: row, style: CellCode.bits(style), maxWidth: maxWidth)
        }
        return write(cells: TerminalText.cells(text), column: column, row: row, style: style, maxWidth: maxWidth)
    }

    /// Writes characters already made one cell each by `TerminalText.cells`.
    @discardableResult
    public mutating func write(cells text: [Character], column: Int, row: Int, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        guard row >= 0, row < size.rows else { return column }
        let limit = min(size.columns, column + max(0, maxWidth ?? size.columns))
        let bits = CellCode.bits(style)
        var x = column
        for character in text {
            if x >= limit { break }
            if x >= 0 {
                codes[row * size.columns + x] = UInt64(characterCode(character)) | bits
            }
            x += 1
        }
        return x
    }

    /// Writes one cell per scalar value (which must already be one cell wide, as
    /// `TerminalText.cells` makes them), in the style `bits` (`CellCode.bits`). The drawing path of
    /// the table, which formats its numbers straight into scalars.
    @discardableResult
    public mutating func write<Scalars: Collection>(
        scalars text: Scalars, column: Int, row: Int, style bits: UInt64, maxWidth: Int? = nil
    ) -> Int where Scalars.Element: FixedWidthInteger {
        guard row >= 0, row < size.rows else { return column }
        let limit = min(size.columns, column + max(0, maxWidth ?? size.columns))
        let after = column >= limit ? column : min(limit, column + text.count)
        guard max(column, 0) < after else { return after }
        let rowStart = row * size.columns
        let first = max(column, 0)
        codes.withUnsafeMutableBufferPointer { codes in
            // The clipped range is known, so the loop checks nothing per cell.
            var index = text.index(text.startIndex, offsetBy: first - column)
            for x in first..<after {
                codes[rowStart + x] = UInt64(truncatingIfNeeded: text[index]) | bits
                text.formIndex(after: &index)
            }
        }
        return after
    }

    /// Writes `width` scalars right-aligned to end just before column `end`, as `spell` hands them out
    /// right to left (a number spells its digits that way), clipped to the screen. The kit knows no
    /// number format: the caller's `spell` does.
    @inlinable
    public mutating func writeBackwards(
        width: Int, endingAt end: Int, row: Int, style bits: UInt64, _ spell: (_ put: (UInt32) -> Void) -> Void
    ) {
        guard row >= 0, row < size.rows else { return }
        let columns = size.columns
        let rowStart = row * columns
        codes.withUnsafeMutableBufferPointer { codes in
            if end <= columns, end - width >= 0 {
                // On screen whole, as table values always are: no check per digit.
                var cell = codes.baseAddress! + rowStart + end
                spell { scalar in
                    cell -= 1
                    cell.pointee = UInt64(scalar) | bits
                }
                return
            }
            var x = end
            spell { scalar in
                x -= 1
                if x >= 0, x < columns { codes[rowStart + x] = UInt64(scalar) | bits }
            }
        }
    }

    /// Changes the style of the cells in one row range, keeping their characters.
    public mutating func restyle(row: Int, from column: Int = 0, to end: Int? = nil, _ change: (inout Style) -> Void) {
        guard let range = cellRange(row: row, from: column, to: end) else { return }
        for index in range {
            var style = CellCode.style(of: codes[index])
            change(&style)
            codes[index] = codes[index] & CellCode.characterMask | CellCode.bits(style)
        }
    }

    /// Sets style flags (`CellCode.dim`, …) on the cells of one row range.
    public mutating func add(flags: UInt64, row: Int, from column: Int = 0, to end: Int? = nil) {
        guard let range = cellRange(row: row, from: column, to: end) else { return }
        codes.withUnsafeMutableBufferPointer { codes in
            for index in range { codes[index] |= flags }
        }
    }

    /// Flips style flags (`CellCode.reverse`, …) on the cells of one row range.
    public mutating func toggle(flags: UInt64, row: Int, from column: Int = 0, to end: Int? = nil) {
        guard let range = cellRange(row: row, from: column, to: end) else { return }
        codes.withUnsafeMutableBufferPointer { codes in
            for index in range { codes[index] ^= flags }
        }
    }

    /// Fills a row range of one line with `style` (for selection bars and headers).
    public mutating func fill(row: Int, from column: Int = 0, to end: Int? = nil, style: Style) {
        guard let range = cellRange(row: row, from: column, to: end) else { return }
        let bits = CellCode.bits(style)
        codes.withUnsafeMutableBufferPointer { codes in
            for index in range { codes[index] = codes[index] & CellCode.characterMask | bits }
        }
    }

    private func cellRange(row: Int, from column: Int, to end: Int?) -> Range<Int>? {
        guard row >= 0, row < size.rows else { return nil }
        let start = max(0, column)
        let stop = min(size.columns, end ?? size.columns)
        guard start < stop else { return nil }
        return (row * size.columns + start)..<(row * size.columns + stop)
    }

    /// The packed cells of `columns` in `row`, clipped to the screen, read in place: for a renderer
    /// that draws them one by one. A code of several scalars (`CellCode.isGrapheme`) means something
    /// only to this frame's `character(of:)`.
    public func withCodes<Result>(row: Int, columns: Range<Int>, _ body: (UnsafeBufferPointer<UInt64>) -> Result) -> Result {
        guard let range = cellRange(row: row, from: columns.lowerBound, to: columns.upperBound) else {
            return body(UnsafeBufferPointer(start: nil, count: 0))
        }
        return codes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The packed cells of `row` (`size.columns` codes), for a view that keeps a drawn row to put back on a
    /// later frame (`setRowCodes(_:to:)`); nil when the row holds a character of several scalars, whose
    /// code points into this frame's own table and means nothing in another frame.
    public func rowCodes(_ row: Int) -> ArraySlice<UInt64>? {
        guard row >= 0, row < size.rows else { return nil }
        let cells = self.codes[(row * size.columns)..<((row + 1) * size.columns)]
        guard graphemes.isEmpty || !cells.contains(where: CellCode.isGrapheme) else { return nil }
        return cells
    }

    /// Puts back a row kept by `rowCodes(_:)` from a frame of the same width.
    public mutating func setRowCodes(_ row: Int, to rowCodes: some Collection<UInt64>) {
        guard row >= 0, row < size.rows, rowCodes.count == size.columns else { return }
        codes.replaceSubrange((row * size.columns)..<((row + 1) * size.columns), with: rowCodes)
    }

    /// The frame as plain text lines, trailing spaces kept: what snapshot tests compare.
    public var lines: [String] {
        (0..<max(0, size.rows)).map { row in
            var line = ""
            for index in (row * size.columns)..<((row + 1) * size.columns) {
                line.append(character(of: codes[index]))
            }
            return line
        }
    }

    /// Whether the cell at `index` here shows what the cell at the same index in `other` shows.
    public func sameCell(at index: Int, as other: ScreenBuffer) -> Bool {
        let code = codes[index]
        let otherCode = other.codes[index]
        guard CellCode.isGrapheme(code) || CellCode.isGrapheme(otherCode) else { return code == otherCode }
        return CellCode.styleBits(of: code) == CellCode.styleBits(of: otherCode)
            && character(of: code).unicodeScalars.elementsEqual(other.character(of: otherCode).unicodeScalars)
    }

    public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
        guard lhs.size == rhs.size, lhs.cursorPosition == rhs.cursorPosition, lhs.colorDefinitions == rhs.colorDefinitions else {
            return false
        }
        if lhs.codesAreCells, rhs.codesAreCells { return lhs.codes == rhs.codes }
        return lhs.codes.indices.allSatisfy { lhs.sameCell(at: $0, as: rhs) }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        hasher.combine(cursorPosition)
        hasher.combine(colorDefinitions)
        for code in codes {
            if CellCode.isGrapheme(code) {
                hasher.combine(CellCode.styleBits(of: code) | UInt64(CellCode.graphemeBase))
                for scalar in character(of: code).unicodeScalars { hasher.combine(scalar.value) }
            } else {
                hasher.combine(code)
            }
        }
    }
}
