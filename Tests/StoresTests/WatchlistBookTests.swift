import Foundation
import Stores
import Testing

/// Named lists as values, and on disk: migration from the one-list file, and two instances.
@Suite struct WatchlistBookTests {
    @Test func listsAreCreatedRenamedMovedAndDeletedButNeverTheLast() throws {
        var book = WatchlistBook(symbols: ["AAPL"])
        #expect(try book.createList(named: "  Indexes ") == "Indexes")
        #expect(try book.add(["^GSPC", "^DJI", "^GSPC"], to: "Indexes") == ["^GSPC", "^DJI"])
        #expect(throws: WatchlistBook.EditError.badName(.duplicate("indexes"))) { try book.createList(named: "indexes") }
        #expect(throws: WatchlistBook.EditError.badName(.empty)) { try book.createList(named: "   ") }
        #expect(throws: WatchlistBook.EditError.badName(.tooLong("A name that is far too long"))) {
            try book.createList(named: "A name that is far too long")
        }
        #expect(throws: WatchlistBook.EditError.badName(.unprintable("a\u{1B}b"))) { try book.createList(named: "a\u{1B}b") }
        #expect(try book.renameList("Indexes", to: "Idx") == "Idx")
        #expect(try book.renameList("Idx", to: "idx") == "idx", "a list may change the case of its own name")
        try book.moveList("idx", by: -5)
        #expect(book.names == ["idx", "Watchlist"])
        let deleted = try book.deleteList("idx")
        #expect(deleted.index == 0)
        #expect(throws: WatchlistBook.EditError.lastList) { try book.deleteList("Watchlist") }
        book.restoreList(deleted.list, at: deleted.index)
        #expect(book.lists == [NamedWatchlist(name: "idx", symbols: ["^GSPC", "^DJI"]), NamedWatchlist(name: "Watchlist", symbols: ["AAPL"])])
        #expect(throws: WatchlistBook.EditError.noSuchList("Gone")) { try book.add(["IBM"], to: "Gone") }
    }

    @Test func errorsSayWhatToDo() {
        #expect(WatchlistBook.EditError.lastList.description == "the last list cannot be deleted; create another one first")
        #expect(WatchlistBook.EditError.badName(.duplicate("Tech")).description == "a list named 'Tech' exists already; pick another name")
    }

    /// A file written by the version before named lists (`{"symbols": [...], "version": 1}`) loads as one
    /// list, loses nothing, and is written in the new form at the first edit.
    @Test func aOneListFileMigratesWithoutLoss() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let written = "{\n  \"symbols\" : [\n    \"AAPL\",\n    \"BRK/B\",\n    \"^GSPC\"\n  ],\n  \"version\" : 1\n}\n"
            try Data(written.utf8).write(to: file.url)
            let store = WatchlistStore(file: file, seed: ["IGNORED"])
            #expect(try store.load() == nil)
            #expect(store.book.lists == [NamedWatchlist(name: "Watchlist", symbols: ["AAPL", "BRK/B", "^GSPC"])])
            #expect(try String(contentsOf: file.url, encoding: .utf8) == written, "loading alone writes nothing")

            let result = try store.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in
                try book.createList(named: "Crypto")
            }
            #expect(result == .success("Crypto"))
            let document = try WatchlistFileContents.document(at: file.url)
            #expect(document.version == 2)
            #expect(document.lists == [.init(name: "Watchlist", symbols: ["AAPL", "BRK/B", "^GSPC"]), .init(name: "Crypto", symbols: [])])
        }
    }

    @Test func twoInstancesKeepEachOthersListsAndEdits() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let first = WatchlistStore(file: file, seed: ["AAPL"])
            let second = WatchlistStore(file: file, seed: ["AAPL"])
            _ = try first.load()
            _ = try second.load()
            _ = try first.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in try book.createList(named: "Tech") }
            // The second instance never saw "Tech" created, yet its edit lands on it.
            let added = try second.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in try book.add(["NVDA"], to: "Tech") }
            #expect(added == .success(["NVDA"]))
            #expect(try second.add(["MSFT"]) == ["MSFT"])
            #expect(second.book.lists == [NamedWatchlist(name: "Watchlist", symbols: ["AAPL", "MSFT"]), NamedWatchlist(name: "Tech", symbols: ["NVDA"])])
            // An edit of a list the other instance deleted is refused with the reason, and the file is untouched.
            _ = try first.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in try book.deleteList("Tech") }
            let refused = try second.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in try book.add(["AMD"], to: "Tech") }
            #expect(refused == .failure(.noSuchList("Tech")))
            #expect(try WatchlistFileContents.document(at: file.url).lists.map(\.name) == ["Watchlist"])
            #expect(second.book.names == ["Watchlist"], "the refusing instance learns the lists as they are")
        }
    }
}
