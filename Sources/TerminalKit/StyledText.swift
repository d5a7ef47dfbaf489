/// A line of differently styled pieces, measured in cells before it is drawn, so views can decide
/// what fits before they write anything.
public struct StyledText: Sendable, Hashable {
    public struct Span: Sendable, Hashable {
        var cells: [Character]
        var style: Style
    }

    private(set) var spans: [Span] = []

    public init() {}

    /// Text from outside: sanitized, then split into cells.
    public init(_ text: String, style: Style = .plain) {
        append(text, style: style)
    }

    public var width: Int { spans.reduce(0) { $0 + $1.cells.count } }
    public var isEmpty: Bool { width == 0 }

    public mutating func append(_ text: String, style: Style = .plain) {
        append(cells: TerminalText.cells(TerminalText.sanitize(text)), style: style)
    }

    public mutating func append(cells: [Character], style: Style) {
        guard !cells.isEmpty else { return }
        spans.append(Span(cells: cells, style: style))
    }

    public mutating func append(_ other: StyledText) {
        spans += other.spans
    }

    public static func + (lhs: StyledText, rhs: StyledText) -> StyledText {
        var result = lhs
        result.append(rhs)
        return result
    }

    /// At most `width` cells, ending in "…" (in the style of the last piece kept) when cut.
    public func truncated(toWidth width: Int) -> StyledText {
        guard self.width > width else { return self }
        guard width > 0 else { return StyledText() }
        var result = StyledText()
        var remaining = width - 1
        var lastStyle = spans.first?.style ?? .plain
        for span in spans where remaining > 0 {
            let taken = Array(span.cells.prefix(remaining))
            result.append(cells: taken, style: span.style)
            lastStyle = span.style
            remaining -= taken.count
        }
        result.append(cells: [TerminalText.ellipsis], style: lastStyle)
        return result
    }

    /// Draws from `column`, clipped to `maxWidth` cells; returns the column after the text.
    @discardableResult
    public func draw(into buffer: inout ScreenBuffer, column: Int, row: Int, maxWidth: Int? = nil) -> Int {
        let limit = column + (maxWidth ?? Int.max / 2)
        var x = column
        for span in spans where x < limit {
            x = buffer.write(cells: span.cells, column: x, row: row, style: span.style, maxWidth: limit - x)
        }
        return x
    }
}
