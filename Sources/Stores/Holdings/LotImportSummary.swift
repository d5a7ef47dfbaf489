import TextSafety

/// What an import added to the holdings book.
public struct LotImportSummary: Sendable, Hashable, CustomStringConvertible {
    /// The CSV file as the user named it.
    public var file: String
    public var lotCount: Int
    /// Distinct symbols among the lots imported.
    public var symbolCount: Int
    /// The book's path.
    public var bookPath: String
    /// Lots in the book now, these included.
    public var bookLotCount: Int
    /// Whether the same bytes had been imported before (allowed with `--again`).
    public var wasImportedBefore: Bool

    public init(file: String, lotCount: Int, symbolCount: Int, bookPath: String, bookLotCount: Int, wasImportedBefore: Bool) {
        self.file = file
        self.lotCount = lotCount
        self.symbolCount = symbolCount
        self.bookPath = bookPath
        self.bookLotCount = bookLotCount
        self.wasImportedBefore = wasImportedBefore
    }

    /// `imported 3 lots of 2 symbols from lots.csv into /home/me/.local/state/commonbroker/holdings.json (5 lots in all)`.
    public var description: String {
        let lots = lotCount == 1 ? "1 lot" : "\(lotCount) lots"
        let symbols = symbolCount == 1 ? "1 symbol" : "\(symbolCount) symbols"
        let again = wasImportedBefore ? " again" : ""
        return "imported\(again) \(lots) of \(symbols) from \(VisibleText.escaped(file)) into \(VisibleText.escaped(bookPath)) (\(bookLotCount) lot\(bookLotCount == 1 ? "" : "s") in all)"
    }
}
