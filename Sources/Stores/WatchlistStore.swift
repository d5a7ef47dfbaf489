import Domain
import Foundation
import Synchronization

/// The user's symbols, in the order they were added. Persisted when `file` is non-nil; otherwise kept
/// for this run only (the `--symbols` option).
///
/// Several instances may share one file: every edit locks, re-reads the file and applies itself as a
/// delta to what is on disk, so one instance's edits never erase another's.
public final class WatchlistStore: Sendable {
    public let file: WatchlistFile?
    private let seed: [String]
    private let now: @Sendable () -> Date
    /// Serializes loads and edits in this process. It is held across file I/O, so the symbols have a
    /// lock of their own and readers never wait for the disk.
    private let editGate = Mutex<Void>(())
    private let current: Mutex<[String]>
    private let editNotes = Mutex<[WatchlistLoadNote]>([])

    public convenience init(file: WatchlistFile?, seed: [String]) {
        self.init(file: file, seed: seed, now: { Date() })
    }

    /// `now` names moved-aside files; tests pin it.
    init(file: WatchlistFile?, seed: [String], now: @escaping @Sendable () -> Date) {
        self.file = file
        self.seed = Self.withoutDuplicates(seed.compactMap(Self.canonical))
        self.now = now
        self.current = Mutex(self.seed)
    }

    public var symbols: [String] { current.withLock { $0 } }

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
            if case .success(let symbols) = WatchlistDocument.symbols(from: data) {
                replaceSymbols(with: symbols)
                return nil
            }
            // Look again under the lock before moving anything: another instance may have just
            // replaced the file with a good one.
            let found = try WatchlistDisk.withExclusiveLock(file.lockURL) { () throws(WatchlistStoreError) in
                try readLocked(file, fallback: seed)
            }
            replaceSymbols(with: found.symbols)
            return found.note
        }
    }

    /// Appends the symbols not yet present (already normalized by the caller); returns those actually added.
    /// A symbol that `Symbol.normalize` rejects is never added: it would make the file unloadable.
    @discardableResult
    public func add(_ symbols: [String]) throws(WatchlistStoreError) -> [String] {
        let symbols = symbols.compactMap(Self.canonical)
        return try edit { list in
            var added: [String] = []
            for symbol in symbols where !list.contains(symbol) {
                list.append(symbol)
                added.append(symbol)
            }
            return added
        }
    }

    /// Removes the symbol; returns the index it had (for undo), or nil when it was not there.
    @discardableResult
    public func remove(_ symbol: String) throws(WatchlistStoreError) -> Int? {
        try edit { list in
            guard let index = list.firstIndex(of: symbol) else { return nil }
            list.remove(at: index)
            return index
        }
    }

    /// Re-inserts a symbol at an index (undo of a removal). The index is clamped to the list as it is
    /// now; a symbol that is back already (added meanwhile) stays where it is.
    public func insert(_ symbol: String, at index: Int) throws(WatchlistStoreError) {
        guard let symbol = Self.canonical(symbol) else { return }
        try edit { list in
            guard !list.contains(symbol) else { return }
            list.insert(symbol, at: min(max(0, index), list.count))
        }
    }

    /// Notes about corrupt files found while editing (load returns its own). Each is returned once.
    public func takeEditNotes() -> [WatchlistLoadNote] {
        editNotes.withLock { notes in
            defer { notes.removeAll() }
            return notes
        }
    }

    /// Applies `change` to the newest list: the file's, re-read under the lock, or the in-memory one when
    /// there is no file (or it was corrupt). Writes only when something changed.
    private func edit<R: Sendable>(_ change: (inout [String]) -> R) throws(WatchlistStoreError) -> R {
        try editGate.withLock { _ throws(WatchlistStoreError) -> R in
            let inMemory = symbols
            guard let file else {
                var list = inMemory
                let result = change(&list)
                replaceSymbols(with: list)
                return result
            }
            try WatchlistDisk.ensureDirectory(file.directory)
            let (list, result) = try WatchlistDisk.withExclusiveLock(file.lockURL) { () throws(WatchlistStoreError) in
                let found = try readLocked(file, fallback: inMemory)
                var list = found.symbols
                let result = change(&list)
                if let note = found.note {
                    editNotes.withLock { $0.append(note) }
                }
                if list != found.symbols || found.note != nil {
                    try WatchlistDisk.writeAtomically(WatchlistDocument(symbols: list).encoded(), to: file.url)
                }
                return (list, result)
            }
            replaceSymbols(with: list)
            return result
        }
    }

    /// The file's symbols; `fallback` when there is no file, or when it is corrupt, in which case it is
    /// moved aside and the note says where. The caller holds the file lock.
    private func readLocked(
        _ file: WatchlistFile, fallback: [String]
    ) throws(WatchlistStoreError) -> (symbols: [String], note: WatchlistLoadNote?) {
        guard let data = try WatchlistDisk.contents(of: file.url) else { return (fallback, nil) }
        switch WatchlistDocument.symbols(from: data) {
        case .success(let symbols):
            return (symbols, nil)
        case .failure(let reason):
            let movedTo = try WatchlistDisk.moveAside(file.url, stamp: Self.stamp(now()))
            let note = WatchlistLoadNote.corruptFileMovedAside(
                path: file.url.path, movedTo: movedTo.path, reason: reason.description)
            return (fallback, note)
        }
    }

    private func replaceSymbols(with symbols: [String]) {
        current.withLock { $0 = symbols }
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

    private static func withoutDuplicates(_ symbols: [String]) -> [String] {
        var seen = Set<String>()
        return symbols.filter { seen.insert($0).inserted }
    }
}
