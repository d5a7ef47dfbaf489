/// Where something is in a text file, both counted from 1: `line` as an editor numbers lines (a line
/// break inside a quoted CSV value starts a new one), `column` in Unicode scalars from the start of the
/// line, so `é` is one column and a tab is one. A UTF-8 byte order mark takes no column.
public struct TextPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: TextPosition, rhs: TextPosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `LINE:COLUMN`, as compilers and editors write it.
    public var description: String { "\(line):\(column)" }
}
