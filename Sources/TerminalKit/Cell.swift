/// One screen cell: a single-width grapheme (never a control character) and its style.
public struct Cell: Sendable, Hashable {
    public var character: Character
    public var style: Style

    public init(_ character: Character = " ", style: Style = .plain) {
        self.character = character
        self.style = style
    }

    public static let blank = Cell()
}
