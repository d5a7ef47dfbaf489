import TextSafety

/// One thing wrong in a lots CSV file: where, what, the text that was there, and what to do, in the
/// form compilers use so an editor can jump to it:
///
///     lots.csv:4:12: quantity is not a plain number, found "1,000"; write digits with an optional - and ., e.g. 10 or -2.5
public struct LotsFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    public var position: TextPosition
    /// What is wrong, e.g. "quantity is not a plain number".
    public var problem: String
    /// The text that was there, as it was in the file; nil when nothing was (a missing value).
    public var found: String?
    /// What to do about it.
    public var fix: String

    /// Longer text is cut here: a stray quote can make a whole file one value.
    static let foundLimit = 40

    public init(file: String, position: TextPosition, problem: String, found: String?, fix: String) {
        self.file = file
        self.position = position
        self.problem = problem
        self.found = found
        self.fix = fix
    }

    /// Outside text (the file name, the found text, a character the problem names) is escaped, so a
    /// control character in the file is shown as `\u{1b}` and steers nothing.
    public var description: String {
        var text = "\(VisibleText.escaped(file)):\(position): \(VisibleText.escaped(problem))"
        if let found {
            let shown = found.unicodeScalars.count > Self.foundLimit
                ? String(String.UnicodeScalarView(found.unicodeScalars.prefix(Self.foundLimit))) + "…"
                : found
            text += ", found \"\(VisibleText.escaped(shown))\""
        }
        return text + "; " + fix
    }
}
