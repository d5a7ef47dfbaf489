import Domain
import TextSafety

/// Every named list, in the user's order: what the watchlist file holds. Edits are plain functions of
/// the book, so the store applies them to whatever another instance last wrote, and tests need no file.
/// Lists are named uniquely (ignoring case); there is always at least one.
public struct WatchlistBook: Sendable, Hashable {
    public private(set) var lists: [NamedWatchlist]
    /// The price alerts, saved in the same file so they travel with the lists.
    public var alerts = AlertBook()
    /// Alert entries of the file this version cannot read, written back as they were.
    var unreadableAlerts: [UnreadableAlertEntry] = []

    /// `lists` with empty or duplicate names and duplicate symbols dropped; one default list if none remain.
    public init(lists: [NamedWatchlist]) {
        var kept: [NamedWatchlist] = []
        for list in lists {
            guard case .success(let name) = NamedWatchlist.validateName(list.name, existing: kept.map(\.name)) else { continue }
            var seen = Set<String>()
            kept.append(NamedWatchlist(name: name, symbols: list.symbols.filter { seen.insert($0).inserted }))
        }
        self.lists = kept.isEmpty ? [NamedWatchlist(name: NamedWatchlist.defaultName, symbols: [])] : kept
    }

    public init(symbols: [String]) {
        self.init(lists: [NamedWatchlist(name: NamedWatchlist.defaultName, symbols: symbols)])
    }

    public var names: [String] { lists.map(\.name) }

    /// The same alerts with other lists (the store's canonical form of the lists).
    func replacingLists(_ lists: [NamedWatchlist]) -> WatchlistBook {
        var book = WatchlistBook(lists: lists)
        book.alerts = alerts
        book.unreadableAlerts = unreadableAlerts
        return book
    }

    /// What is wrong with each alert entry of the file that could not be read (kept as it is).
    public var unreadableAlertProblems: [String] { unreadableAlerts.map(\.problem) }

    public func index(of name: String) -> Int? {
        lists.firstIndex { $0.name == name }
    }

    public func symbols(of name: String) -> [String]? {
        index(of: name).map { lists[$0].symbols }
    }

    /// Why an edit could not be applied to the book as it is now (another instance may have changed it).
    public enum EditError: Error, Sendable, Hashable, CustomStringConvertible {
        case noSuchList(String)
        case lastList
        case badName(NamedWatchlist.NameError)

        public var description: String {
            switch self {
            case .noSuchList(let name):
                "there is no list named '\(VisibleText.escaped(name))' any more (renamed or deleted in another window?)"
            case .lastList: "the last list cannot be deleted; create another one first"
            case .badName(let error): error.description
            }
        }
    }

    /// Appends the symbols `name` lacks; returns those added.
    public mutating func add(_ symbols: [String], to name: String) throws(EditError) -> [String] {
        guard let index = index(of: name) else { throw .noSuchList(name) }
        var added: [String] = []
        for symbol in symbols where !lists[index].symbols.contains(symbol) && !added.contains(symbol) {
            added.append(symbol)
        }
        lists[index].symbols += added
        return added
    }

    /// Removes `symbol` from `name`; returns where it was, or nil when it was not there.
    public mutating func remove(_ symbol: String, from name: String) throws(EditError) -> Int? {
        guard let index = index(of: name) else { throw .noSuchList(name) }
        guard let position = lists[index].symbols.firstIndex(of: symbol) else { return nil }
        lists[index].symbols.remove(at: position)
        return position
    }

    /// Puts `symbol` back at `position` (clamped) unless it is there already.
    public mutating func insert(_ symbol: String, at position: Int, in name: String) throws(EditError) {
        guard let index = index(of: name) else { throw .noSuchList(name) }
        guard !lists[index].symbols.contains(symbol) else { return }
        lists[index].symbols.insert(symbol, at: min(max(0, position), lists[index].symbols.count))
    }

    /// Appends an empty list; returns its (trimmed) name.
    public mutating func createList(named raw: String) throws(EditError) -> String {
        let name = try validName(raw, except: nil)
        lists.append(NamedWatchlist(name: name, symbols: []))
        return name
    }

    public mutating func renameList(_ old: String, to raw: String) throws(EditError) -> String {
        guard let index = index(of: old) else { throw .noSuchList(old) }
        let name = try validName(raw, except: old)
        lists[index].name = name
        return name
    }

    /// Removes list `name`; returns it and where it was, for undo.
    public mutating func deleteList(_ name: String) throws(EditError) -> (list: NamedWatchlist, index: Int) {
        guard let index = index(of: name) else { throw .noSuchList(name) }
        guard lists.count > 1 else { throw .lastList }
        return (lists.remove(at: index), index)
    }

    /// Puts a deleted list back at `position` (clamped). A list of that name created meanwhile gets the
    /// restored symbols it lacks instead of a twin.
    public mutating func restoreList(_ list: NamedWatchlist, at position: Int) {
        if let index = lists.firstIndex(where: { $0.name.lowercased() == list.name.lowercased() }) {
            lists[index].symbols += list.symbols.filter { !lists[index].symbols.contains($0) }
            return
        }
        lists.insert(list, at: min(max(0, position), lists.count))
    }

    /// Moves list `name` by `offset` places (clamped to the ends).
    public mutating func moveList(_ name: String, by offset: Int) throws(EditError) {
        guard let index = index(of: name) else { throw .noSuchList(name) }
        let target = min(max(0, index + offset), lists.count - 1)
        let list = lists.remove(at: index)
        lists.insert(list, at: target)
    }

    private func validName(_ raw: String, except current: String?) throws(EditError) -> String {
        switch NamedWatchlist.validateName(raw, existing: names.filter { $0 != current }) {
        case .success(let name): return name
        case .failure(let error): throw .badName(error)
        }
    }
}
