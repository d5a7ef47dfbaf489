/// What the mouse did, and where (0-based screen cells), independent of curses.
public struct MouseEvent: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// The left button was pressed (or clicked: terminals report one or the other).
        case press
        case wheelUp
        case wheelDown
    }

    public var kind: Kind
    public var column: Int
    public var row: Int

    public init(_ kind: Kind, column: Int, row: Int) {
        self.kind = kind
        self.column = column
        self.row = row
    }
}
