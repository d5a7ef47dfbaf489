import Foundation
import Testing
@testable import Stores

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct WatchlistStoreTests {
    @Test func addedSymbolsSurviveIntoANewStore() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let first = WatchlistStore(file: file, seed: ["AAPL"])
            #expect(try first.load() == nil)
            #expect(try first.add(["MSFT", "NVDA"]) == ["MSFT", "NVDA"])
            #expect(first.symbols == ["AAPL", "MSFT", "NVDA"])

            let second = WatchlistStore(file: file, seed: ["SPY"])
            #expect(try second.load() == nil)
            #expect(second.symbols == ["AAPL", "MSFT", "NVDA"])
        }
    }

    @Test func fileIsPrettyPrintedWithSortedKeysAndTrailingNewline() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let store = WatchlistStore(file: file, seed: [])
            try store.add(["AAPL", "BRK/B"])

            let text = try String(contentsOf: file.url, encoding: .utf8)
            #expect(try WatchlistFileContents.document(at: file.url) == .init(version: 2, lists: [.init(name: "Watchlist", symbols: ["AAPL", "BRK/B"])]))
            #expect(text.hasSuffix("}\n"))
            #expect(text.contains("\n  \"lists\""))
            let listsKey = try #require(text.range(of: "\"lists\""))
            let versionKey = try #require(text.range(of: "\"version\""))
            #expect(listsKey.lowerBound < versionKey.lowerBound)
            #expect(text.contains("BRK/B"), "slashes are not escaped")
        }
    }

    @Test func withoutAFileTheSeedIsUsedAndNothingIsWritten() throws {
        try TemporaryDirectory.with { dir throws in
            let stateDirectory = dir.path("state/commonbroker")
            let store = WatchlistStore(file: WatchlistFile(directory: stateDirectory), seed: ["AAPL", "MSFT", "AAPL"])
            #expect(try store.load() == nil)
            #expect(store.symbols == ["AAPL", "MSFT"])
            #expect(try TemporaryDirectory.listing(dir.url) == [])
        }
    }

    @Test func writesAtomicallyIntoAPrivateDirectory() throws {
        try TemporaryDirectory.with { dir throws in
            let stateDirectory = dir.path("state/deeper/commonbroker")
            let file = WatchlistFile(directory: stateDirectory)
            let store = WatchlistStore(file: file, seed: ["AAPL"])
            _ = try store.load()
            for symbol in ["MSFT", "NVDA", "TSLA"] {
                try store.add([symbol])
            }
            try store.remove("MSFT")

            #expect(try TemporaryDirectory.listing(stateDirectory) == ["watchlist.json", "watchlist.lock"])
            #expect(try WatchlistFileContents.symbols(at: file.url) == ["AAPL", "NVDA", "TSLA"])
            for created in ["state", "state/deeper", "state/deeper/commonbroker"] {
                #expect(try TemporaryDirectory.permissions(dir.path(created)) == 0o700, "\(created)")
            }
            #expect(try TemporaryDirectory.permissions(file.url) == 0o600)
        }
    }

    @Test func anExistingDirectoryKeepsItsPermissions() throws {
        try TemporaryDirectory.with { dir throws in
            chmod(dir.url.path, 0o755)
            let store = WatchlistStore(file: WatchlistFile(directory: dir.url), seed: [])
            try store.add(["AAPL"])
            #expect(try TemporaryDirectory.permissions(dir.url) == 0o755)
        }
    }

    @Test func duplicateAddsAreSkipped() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let store = WatchlistStore(file: file, seed: ["AAPL"])
            _ = try store.load()
            #expect(try store.add(["AAPL"]) == [])
            #expect(try TemporaryDirectory.listing(dir.url).contains("watchlist.json") == false,
                    "an edit that changes nothing writes nothing")
            #expect(try store.add(["MSFT", "AAPL", "MSFT", "NVDA"]) == ["MSFT", "NVDA"])
            #expect(store.symbols == ["AAPL", "MSFT", "NVDA"])
            #expect(try WatchlistFileContents.symbols(at: file.url) == ["AAPL", "MSFT", "NVDA"])
        }
    }

    @Test func symbolsTheFileCouldNotHoldAreNeverAdded() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let store = WatchlistStore(file: file, seed: ["spy", "NOT A SYMBOL"])
            #expect(store.symbols == ["SPY"])
            #expect(try store.add(["AAPL", "BAD SYMBOL", "msft", ""]) == ["AAPL", "MSFT"])
            try store.insert("TOO-LONG-FOR-A-SYMBOL", at: 0)
            #expect(store.symbols == ["SPY", "AAPL", "MSFT"])

            let reloaded = WatchlistStore(file: file, seed: [])
            #expect(try reloaded.load() == nil, "what the store wrote loads back without complaint")
            #expect(reloaded.symbols == ["SPY", "AAPL", "MSFT"])
        }
    }

    @Test func removeThenInsertRestoresTheOrder() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let store = WatchlistStore(file: file, seed: ["AAPL", "MSFT", "NVDA", "TSLA"])
            _ = try store.load()

            let index = try store.remove("NVDA")
            #expect(index == 2)
            #expect(store.symbols == ["AAPL", "MSFT", "TSLA"])
            #expect(try WatchlistFileContents.symbols(at: file.url) == ["AAPL", "MSFT", "TSLA"])

            try store.insert("NVDA", at: try #require(index))
            #expect(store.symbols == ["AAPL", "MSFT", "NVDA", "TSLA"])
            #expect(try WatchlistFileContents.symbols(at: file.url) == ["AAPL", "MSFT", "NVDA", "TSLA"])
        }
    }

    @Test func removingAnAbsentSymbolReturnsNil() throws {
        let store = WatchlistStore(file: nil, seed: ["AAPL"])
        #expect(try store.remove("MSFT") == nil)
        #expect(store.symbols == ["AAPL"])
    }

    @Test func insertClampsTheIndexAndKeepsASymbolThatIsBackAlready() throws {
        let store = WatchlistStore(file: nil, seed: ["AAPL", "MSFT"])
        try store.insert("NVDA", at: 99)
        try store.insert("SPY", at: -3)
        #expect(store.symbols == ["SPY", "AAPL", "MSFT", "NVDA"])
        try store.insert("MSFT", at: 0)
        #expect(store.symbols == ["SPY", "AAPL", "MSFT", "NVDA"])
    }

    @Test func anEphemeralStoreEditsInMemoryOnly() throws {
        let store = WatchlistStore(file: nil, seed: ["AAPL", "MSFT"])
        #expect(store.file == nil)
        #expect(try store.load() == nil)
        #expect(try store.add(["NVDA", "AAPL"]) == ["NVDA"])
        #expect(try store.remove("AAPL") == 0)
        #expect(store.symbols == ["MSFT", "NVDA"])
        #expect(try store.load() == nil)
        #expect(store.symbols == ["AAPL", "MSFT"], "reloading an ephemeral store starts from the seed again")
    }

    @Test func aHandEditedFileIsNormalizedAndAnEmptyListIsKept() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            try WatchlistFileContents.write(["aapl", "MSFT", "AAPL"], to: file.url)
            let store = WatchlistStore(file: file, seed: ["SPY"])
            #expect(try store.load() == nil)
            #expect(store.symbols == ["AAPL", "MSFT"])

            try WatchlistFileContents.write([], to: file.url)
            #expect(try store.load() == nil)
            #expect(store.symbols == [], "an emptied watchlist stays empty rather than reverting to the seed")
        }
    }

    // MARK: Errors

    @Test(.enabled(if: geteuid() != 0, "root reads files whatever their permissions"))
    func anUnreadableFileThrowsAClearError() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            try WatchlistFileContents.write(["AAPL"], to: file.url)
            chmod(file.url.path, 0)
            let store = WatchlistStore(file: file, seed: ["SPY"])

            let error = try #require(throws: WatchlistStoreError.self) { try store.load() }
            #expect(error.operation == .read)
            #expect(error.path == file.url.path)
            #expect(error.code == EACCES)
            #expect(error.description.contains(file.url.path))
            #expect(error.description.contains(String(cString: strerror(EACCES))))
            #expect(error.description.contains("--symbols"))
            #expect(try TemporaryDirectory.listing(dir.url) == ["watchlist.json"], "an unreadable file is not moved")
        }
    }

    @Test(.enabled(if: geteuid() != 0, "root writes into read-only directories"))
    func anUnwritableDirectoryFailsTheEditAndKeepsTheList() throws {
        try TemporaryDirectory.with { dir throws in
            let store = WatchlistStore(file: WatchlistFile(directory: dir.url), seed: ["AAPL"])
            _ = try store.load()
            chmod(dir.url.path, 0o500)
            defer { chmod(dir.url.path, 0o700) }

            let error = try #require(throws: WatchlistStoreError.self) { try store.add(["MSFT"]) }
            #expect(error.code == EACCES)
            #expect(store.symbols == ["AAPL"])
        }
    }

    @Test func aDirectoryWhereTheFileShouldBeIsAReadError() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            try FileManager.default.createDirectory(at: file.url, withIntermediateDirectories: false)
            let store = WatchlistStore(file: file, seed: ["SPY"])

            let error = try #require(throws: WatchlistStoreError.self) { try store.load() }
            #expect(error.operation == .read)
            #expect(error.code == EISDIR)
        }
    }

    @Test func aStateDirectoryBlockedByAFileIsACreateDirectoryError() throws {
        try TemporaryDirectory.with { dir throws in
            try Data("x".utf8).write(to: dir.path("state"))
            let store = WatchlistStore(file: WatchlistFile(directory: dir.path("state/commonbroker")), seed: [])

            let error = try #require(throws: WatchlistStoreError.self) { try store.add(["AAPL"]) }
            #expect(error.operation == .createDirectory)
            #expect(error.description.hasPrefix("cannot create directory \(dir.path("state/commonbroker").path)"))
            #expect(store.symbols == [])
        }
    }
}
