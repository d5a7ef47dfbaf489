import Foundation
import Testing
@testable import Stores

@Suite struct WatchlistCorruptFileTests {
    /// 2024-03-05 14:07:09 UTC; the expected name is computed from it in local time, as the store does.
    static let pinned = Date(timeIntervalSince1970: 1_709_647_629)

    static var expectedStamp: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = .current
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: pinned)
    }

    static let corruptContents: [(String, String)] = [
        ("not JSON {", "not valid JSON"),
        ("", "not valid JSON"),
        ("[\"AAPL\"]", "not a JSON object"),
        ("{\"version\": 1}", "missing \"symbols\""),
        ("{\"symbols\": [\"AAPL\"]}", "missing \"version\""),
        ("{\"version\": 3, \"lists\": []}", "unsupported version 3, expected 2"),
        ("{\"version\": 2, \"symbols\": [\"AAPL\"]}", "missing \"lists\""),
        ("{\"version\": 2, \"lists\": []}", "no lists"),
        ("{\"version\": 2, \"lists\": [{\"name\": \"A\", \"symbols\": []}, {\"name\": \"a\", \"symbols\": []}]}", "list 2 has a bad or repeated name 'a'"),
        ("{\"version\": 2, \"lists\": [{\"name\": \"Tech\", \"symbols\": [\"A B\"]}]}", "invalid symbol in list 'Tech'"),
        ("{\"version\": 1, \"symbols\": \"AAPL\"}", "wrong type at symbols"),
        ("{\"version\": 1, \"symbols\": [\"AAPL\", 7]}", "wrong type at symbols.[1]"),
        ("{\"version\": 1, \"symbols\": [\"AAPL\", \"BAD SYMBOL\"]}", "invalid symbol"),
    ]

    @Test(arguments: corruptContents)
    func aCorruptFileIsMovedAsideByteForByte(contents: String, reason: String) throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let original = Data(contents.utf8)
            try original.write(to: file.url)
            let store = WatchlistStore(file: file, seed: ["SPY"], now: { Self.pinned })

            let note = try #require(try store.load())
            let movedTo = file.url.path + ".corrupt-" + Self.expectedStamp
            guard case .corruptFileMovedAside(let path, let moved, let why) = note else { return }
            #expect(path == file.url.path)
            #expect(moved == movedTo)
            #expect(why.hasPrefix(reason), "\(why)")
            #expect(note.description.contains(movedTo))
            #expect(try Data(contentsOf: URL(fileURLWithPath: movedTo)) == original)
            #expect(!FileManager.default.fileExists(atPath: file.url.path))
            #expect(store.symbols == ["SPY"])
        }
    }

    @Test func aSecondCorruptFileInTheSameSecondGetsACounter() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let store = WatchlistStore(file: file, seed: [], now: { Self.pinned })
            var moved: [String] = []
            for attempt in 1...3 {
                try Data("garbage \(attempt)".utf8).write(to: file.url)
                guard case .corruptFileMovedAside(_, let movedTo, _) = try #require(try store.load()) else { return }
                moved.append(movedTo)
            }
            let base = file.url.path + ".corrupt-" + Self.expectedStamp
            #expect(moved == [base, base + "-2", base + "-3"])
            for (index, path) in moved.enumerated() {
                #expect(try String(contentsOfFile: path, encoding: .utf8) == "garbage \(index + 1)")
            }
        }
    }

    @Test func theFirstEditAfterACorruptLoadWritesAFreshFileAndKeepsTheOldOne() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            try Data("{oops".utf8).write(to: file.url)
            let store = WatchlistStore(file: file, seed: ["SPY"], now: { Self.pinned })
            #expect(try store.load() != nil)
            try store.add(["AAPL"])

            #expect(try WatchlistFileContents.symbols(at: file.url) == ["SPY", "AAPL"])
            let aside = "watchlist.json.corrupt-" + Self.expectedStamp
            #expect(try TemporaryDirectory.listing(dir.url) == ["watchlist.json", aside, "watchlist.lock"].sorted())
            #expect(try String(contentsOf: dir.path(aside), encoding: .utf8) == "{oops")
        }
    }

    @Test func aFileCorruptedUnderARunningStoreIsMovedAsideOnTheNextEdit() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let store = WatchlistStore(file: file, seed: [], now: { Self.pinned })
            _ = try store.load()
            try store.add(["AAPL", "MSFT"])
            try Data("half-written by some other tool".utf8).write(to: file.url)

            #expect(try store.add(["NVDA"]) == ["NVDA"])
            #expect(store.symbols == ["AAPL", "MSFT", "NVDA"], "the in-memory list is the base")
            #expect(try WatchlistFileContents.symbols(at: file.url) == ["AAPL", "MSFT", "NVDA"])

            let notes = store.takeEditNotes()
            #expect(notes == [.corruptFileMovedAside(
                path: file.url.path, movedTo: file.url.path + ".corrupt-" + Self.expectedStamp, reason: "not valid JSON")])
            #expect(store.takeEditNotes() == [], "each note is handed out once")
            #expect(try String(contentsOfFile: file.url.path + ".corrupt-" + Self.expectedStamp, encoding: .utf8)
                == "half-written by some other tool")
        }
    }
}
