import Domain
import Foundation
import Locking

/// The user's named lists of symbols (`WatchlistBook`), each in the order its symbols were added.
/// Persisted when `file` is non-nil; otherwise kept for this run only (the `--symbols` option).
///
/// Several instances may share one file: every edit locks, re-reads the file and applies itself as a
/// delta to what is on disk, so one instance's edits never erase another's.
public final class WatchlistStore: Sendable {
    public let file: WatchlistFile?
    private let seed: WatchlistBook
    private let now: @Sendable () -> Date
    /// Serializes loads and edits in this process. It is held across file I/O, so the lists have a
    /// lock of their own and readers never wait for the disk.
    private let editGate = Locked<Void>(())
    private let current: Locked<WatchlistBook>
    private let editNotes = Locked<[WatchlistLoadNote]>([])

    public convenience init(file: WatchlistFile?, seed: [String]) {
        self.init(file: file, seed: seed, now: { Date() })
    }

    /// `now` names moved-aside files; tests pin it.
    init(file: WatchlistFile?, seed: [String], now: @escaping @Sendable () -> Date) {
        self.file = file
        self.seed = WatchlistBook(symbols: Self.withoutDuplicates(seed.compactMap(Self.canonical)))
        self.now = now
        self.current = Locked(self.seed)
    }

    /// Every list, as last read or written.
    public var book: WatchlistBook { current.withLock { $0 } }

    /// The first list's symbols (what `print` shows).
    public var symbols: [String] { book.lists[0].symbols }

    /// Reads the file. No file yet ⇒ the seed symbols (the file is NOT created until the first edit).
    /// Corrupt ⇒ moved aside (never overwritten), seed used, note returned. Throws when the file exists
    /// but cannot be read (permissions) — with a clear message.
    public func load() throws(WatchlistStoreError) -> WatchlistLoadNote? {
        try editGate.withLock { _ throws(WatchlistStoreError) -> WatchlistLoadNote? in
            guard let file else {
                replaceSymbols(with: seed)
                return nil
            }
            guard let data = try WatchlistDisk.contents(of: file.url) else {
                replaceSymbols(with: seed)
                return nil
            }
            if case .success(let book) = WatchlistDocument.book(from: data) {
                replaceSymbols(with: book)
                guard !book.unreadableAlerts.isEmpty else { return nil }
                return .unreadableAlerts(path: file.url.path, problems: book.unreadableAlertProblems)
            }
            // Look again under the lock before moving anything: another instance may have just
            // replaced the file with a good one.
            let found = try WatchlistDisk.withExclusiveLock(file.lockURL) { () throws(WatchlistStoreError) in
                try readLocked(file, fallback: seed)
            }
            replaceSymbols(with: found.book)
            return found.note
        }
    }

    /// Appends the symbols not yet present to the first list (already normalized by the caller); returns
    /// those actually added. A symbol that `Symbol.normalize` rejects is never added: it would make the
    /// file unloadable.
    @discardableResult
    public func add(_ symbols: [String]) throws(WatchlistStoreError) -> [String] {
        let symbols = symbols.compactMap(Self.canonical)
        return try firstListEdit { (book, name) throws(WatchlistBook.EditError) in try book.add(symbols, to: name) }
    }

    /// Removes the symbol from the first list; returns the index it had (for undo), or nil when it was not there.
    @discardableResult
    public func remove(_ symbol: String) throws(WatchlistStoreError) -> Int? {
        try firstListEdit { (book, name) throws(WatchlistBook.EditError) in try book.remove(symbol, from: name) }
    }

    /// Re-inserts a symbol into the first list at an index (undo of a removal). The index is clamped to
    /// the list as it is now; a symbol that is back already (added meanwhile) stays where it is.
    public func insert(_ symbol: String, at index: Int) throws(WatchlistStoreError) {
        guard let symbol = Self.canonical(symbol) else { return }
        try firstListEdit { (book, name) throws(WatchlistBook.EditError) in try book.insert(symbol, at: index, in: name) }
    }

    private func firstListEdit<R: Sendable>(
        _ change: (inout WatchlistBook, String) throws(WatchlistBook.EditError) -> R
    ) throws(WatchlistStoreError) -> R {
        let result = try edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) -> R in
            try change(&book, book.lists[0].name)
        }
        // The first list always exists, so the book never refuses these.
        switch result {
        case .success(let value): return value
        case .failure(let error): preconditionFailure("the first list refused an edit: \(error)")
        }
    }

    /// Applies `change` to the newest lists: the file's, re-read under the lock, or the in-memory ones
    /// when there is no file (or it was corrupt), and writes them when something changed. Symbols that
    /// `Symbol.normalize` rejects are dropped before writing: the file must load again. The book can
    /// refuse the change (a list another instance deleted), which is returned, not thrown: the file is fine.
    public func edit<R: Sendable>(
        _ change: (inout WatchlistBook) throws(WatchlistBook.EditError) -> R
    ) throws(WatchlistStoreError) -> Result<R, WatchlistBook.EditError> {
        try editGate.withLock { _ throws(WatchlistStoreError) -> Result<R, WatchlistBook.EditError> in
            let inMemory = book
            func apply(to found: WatchlistBook) -> (WatchlistBook, Result<R, WatchlistBook.EditError>) {
                var edited = found
                do throws(WatchlistBook.EditError) {
                    let value = try change(&edited)
                    return (Self.canonical(edited), .success(value))
                } catch {
                    return (found, .failure(error))
                }
            }
            guard let file else {
                let (edited, result) = apply(to: inMemory)
                replaceSymbols(with: edited)
                return result
            }
            try WatchlistDisk.ensureDirectory(file.directory)
            let (edited, result) = try WatchlistDisk.withExclusiveLock(file.lockURL) { () throws(WatchlistStoreError) in
                let found = try readLocked(file, fallback: inMemory)
                let (edited, result) = apply(to: found.book)
                if let note = found.note {
                    editNotes.withLock { $0.append(note) }
                }
                if edited != found.book || found.note != nil || found.isOlderVersion {
                    try WatchlistDisk.writeAtomically(WatchlistDocument.encoded(edited), to: file.url)
                }
                return (edited, result)
            }
            replaceSymbols(with: edited)
            return result
        }
    }

    /// Notes about corrupt files found while editing (load returns its own). Each is returned once.
    public func takeEditNotes() -> [WatchlistLoadNote] {
        editNotes.withLock { notes in
            defer { notes.removeAll() }
            return notes
        }
    }

    /// The file's lists; `fallback` when there is no file, or when it is corrupt, in which case it is
    /// moved aside and the note says where. The caller holds the file lock.
    private func readLocked(
        _ file: WatchlistFile, fallback: WatchlistBook
    ) throws(WatchlistStoreError) -> (book: WatchlistBook, note: WatchlistLoadNote?, isOlderVersion: Bool) {
        guard let data = try WatchlistDisk.contents(of: file.url) else { return (fallback, nil, false) }
        switch WatchlistDocument.book(from: data) {
        case .success(let book):
            return (book, nil, !WatchlistDocument.isCurrentVersion(data))
        case .failure(let reason):
            let movedTo = try WatchlistDisk.moveAside(file.url, stamp: Self.stamp(now()))
            let note = WatchlistLoadNote.corruptFileMovedAside(
                path: file.url.path, movedTo: movedTo.path, reason: reason.description)
            return (fallback, note, false)
        }
    }

    private func replaceSymbols(with book: WatchlistBook) {
        current.withLock { $0 = book }
    }

    /// `yyyyMMdd-HHmmss` in local time, which is how the user will look for it.
    static func stamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let v = value ?? 0
            return v < 10 ? "0\(v)" : "\(v)"
        }
        return "\(c.year ?? 0)\(two(c.month))\(two(c.day))-\(two(c.hour))\(two(c.minute))\(two(c.second))"
    }

    /// Everything the store holds passes `Symbol.normalize`, so what it writes it can read back.
    private static func canonical(_ symbol: String) -> String? {
        try? Symbol.normalize(symbol).get()
    }

    private static func canonical(_ book: WatchlistBook) -> WatchlistBook {
        book.replacingLists(book.lists.map { NamedWatchlist(name: $0.name, symbols: withoutDuplicates($0.symbols.compactMap(canonical))) })
    }

    private static func withoutDuplicates(_ symbols: [String]) -> [String] {
        var seen = Set<String>()
        return symbols.filter { seen.insert($0).inserted }
    }
}
