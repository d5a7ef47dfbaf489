/// A place in a text file, both 1-based, as editors and compilers show it. Columns count Unicode
/// scalars, so a non-ASCII character before the error still moves the caret by one.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}
