import Stores

/// A change to the saved lists, applied by the runtime through `WatchlistStore` (which merges it with
/// what other instances wrote). Lists are named, so an edit lands on the right list whatever another
/// instance did to the order.
public enum WatchlistEdit: Sendable, Hashable {
    /// Append these normalized symbols to a list (those already present are skipped).
    case add([String], to: String)
    case remove(String, from: String)
    /// Put a removed symbol back where it was (undo).
    case restore(String, at: Int, in: String)
    case createList(String)
    case renameList(String, to: String)
    case deleteList(String)
    /// Put a deleted list back where it was (undo).
    case restoreList(NamedWatchlist, at: Int)
    case moveList(String, by: Int)
}

extension WatchlistEdit {
    /// Applies the edit to `book` (the lists as the file holds them now) and says what it did; `lists` and
    /// `notes` are the store's to fill in. Throws when the book refuses (a list another window deleted).
    public func apply(to book: inout WatchlistBook) throws(WatchlistBook.EditError) -> WatchlistEditOutcome {
        var outcome = WatchlistEditOutcome(lists: [])
        switch self {
        case .add(let symbols, let list): outcome.added = try book.add(symbols, to: list)
        case .remove(let symbol, let list): outcome.removedIndex = try book.remove(symbol, from: list)
        case .restore(let symbol, let index, let list): try book.insert(symbol, at: index, in: list)
        case .createList(let name): outcome.savedName = try book.createList(named: name)
        case .renameList(let old, let name): outcome.savedName = try book.renameList(old, to: name)
        case .deleteList(let name):
            let deleted = try book.deleteList(name)
            (outcome.deletedList, outcome.deletedIndex) = (deleted.list, deleted.index)
        case .restoreList(let list, let index): book.restoreList(list, at: index)
        case .moveList(let name, let offset): try book.moveList(name, by: offset)
        }
        return outcome
    }
}

/// What an edit did, as the store saw it.
public struct WatchlistEditOutcome: Sendable, Hashable {
    /// Every list after the edit (another instance's edits included).
    public var lists: [NamedWatchlist]
    /// For `.add`: the symbols that were new.
    public var added: [String]
    /// For `.remove`: where the symbol was, or nil when it was gone already.
    public var removedIndex: Int?
    /// For `.deleteList`: the list as it was on disk, and where it was, for undo.
    public var deletedList: NamedWatchlist?
    public var deletedIndex: Int?
    /// For `.createList` and `.renameList`: the name as saved (trimmed).
    public var savedName: String?
    /// Why the lists as they are on disk refused the edit (a list deleted in another window); the file is fine.
    public var refusal: WatchlistBook.EditError?
    /// A corrupt file found (and moved aside) while editing.
    public var notes: [WatchlistLoadNote]

    public init(
        lists: [NamedWatchlist], added: [String] = [], removedIndex: Int? = nil, deletedList: NamedWatchlist? = nil, deletedIndex: Int? = nil,
        savedName: String? = nil, refusal: WatchlistBook.EditError? = nil, notes: [WatchlistLoadNote] = []
    ) {
        self.lists = lists
        self.added = added
        self.removedIndex = removedIndex
        self.deletedList = deletedList
        self.deletedIndex = deletedIndex
        self.savedName = savedName
        self.refusal = refusal
        self.notes = notes
    }
}
