import Stores

/// A change to the saved watchlist, applied by the runtime through `WatchlistStore` (which merges it
/// with what other instances wrote).
public enum WatchlistEdit: Sendable, Hashable {
    /// Append these normalized symbols (those already present are skipped).
    case add([String])
    case remove(String)
    /// Put a removed symbol back where it was (undo).
    case restore(String, at: Int)
}

/// What an edit did, as the store saw it.
public struct WatchlistEditOutcome: Sendable, Hashable {
    /// The whole list after the edit.
    public var symbols: [String]
    /// For `.add`: the symbols that were new.
    public var added: [String]
    /// For `.remove`: where the symbol was, or nil when it was gone already.
    public var removedIndex: Int?
    /// A corrupt file found (and moved aside) while editing.
    public var notes: [WatchlistLoadNote]

    public init(symbols: [String], added: [String] = [], removedIndex: Int? = nil, notes: [WatchlistLoadNote] = []) {
        self.symbols = symbols
        self.added = added
        self.removedIndex = removedIndex
        self.notes = notes
    }
}
