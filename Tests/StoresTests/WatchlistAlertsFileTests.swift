import Domain
import Foundation
import Testing
@testable import Stores

/// Alerts saved beside the lists in watchlist.json: old files, round trips, entries that cannot be read.
@Suite struct WatchlistAlertsFileTests {
    static let setAt = Date(timeIntervalSince1970: 1_790_000_000)

    static func draft(_ symbol: String, _ condition: AlertCondition, scope: AlertBrokerScope = .any, rearm: AlertRearm = .once) -> AlertDraft {
        AlertDraft(symbol: symbol, condition: condition, scope: scope, rearm: rearm)
    }

    /// A version 2 file as written before alerts existed.
    static let listsOnly = """
        {
          "lists" : [
            {
              "name" : "Tech",
              "symbols" : [
                "AAPL",
                "MSFT"
              ]
            }
          ],
          "version" : 2
        }

        """

    @Test func aFileWithoutAlertsLoadsUnchangedAndIsWrittenTheSame() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            try Data(Self.listsOnly.utf8).write(to: file.url)
            let store = WatchlistStore(file: file, seed: ["SPY"])
            #expect(try store.load() == nil)
            #expect(store.book.lists == [NamedWatchlist(name: "Tech", symbols: ["AAPL", "MSFT"])])
            #expect(store.book.alerts.isEmpty)
            // The document this version writes for the same book is the same bytes.
            #expect(String(decoding: WatchlistDocument.encoded(store.book), as: UTF8.self) == Self.listsOnly)
            // A version 1 file too.
            try WatchlistFileContents.write(["IBM"], to: file.url)
            #expect(try store.load() == nil)
            #expect(store.book.alerts.isEmpty && store.symbols == ["IBM"])
        }
    }

    @Test func alertsRoundTripThroughTheFile() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            let store = WatchlistStore(file: file, seed: ["AAPL"])
            _ = try store.load()
            _ = try store.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in
                book.alerts.add(Self.draft("AAPL", .above(exactDecimal("190.5"))), at: Self.setAt)
                book.alerts.add(Self.draft("MSFT", .below(exactDecimal("0.0001")), scope: .broker("demo-beta"), rearm: .whenCleared), at: Self.setAt)
                var fired = book.alerts.add(Self.draft("^GSPC", .move(percent: exactDecimal("-3.25"), reference: exactDecimal("6012.34"))), at: Self.setAt)
                fired.isArmed = false
                fired.lastFired = Alert.Fired(at: Self.setAt.addingTimeInterval(61), brokerID: "demo-gamma", price: exactDecimal("5816.9"))
                book.alerts.adoptStates(of: [fired])
            }
            let written = store.book
            let again = WatchlistStore(file: file, seed: [])
            #expect(try again.load() == nil)
            #expect(again.book == written)
            #expect(again.book.alerts.alerts.count == 3)
            #expect(again.book.alerts[id: 3]?.lastFired?.price == exactDecimal("5816.9"))
            // Amounts are strings with their exact digits.
            let text = try String(contentsOf: file.url, encoding: .utf8)
            #expect(text.contains("\"price\" : \"0.0001\""))
            #expect(text.contains("\"percent\" : \"-3.25\""))
            #expect(text.contains("\"created\" : \"2026-09-21T"))
        }
    }

    @Test func removingTheLastAlertWritesTheOldForm() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            try Data(Self.listsOnly.utf8).write(to: file.url)
            let store = WatchlistStore(file: file, seed: [])
            _ = try store.load()
            _ = try store.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in
                book.alerts.add(Self.draft("AAPL", .above(exactDecimal("1"))), at: Self.setAt)
            }
            #expect(try String(contentsOf: file.url, encoding: .utf8).contains("\"alerts\""))
            _ = try store.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in
                book.alerts.remove(id: 1)
            }
            #expect(try String(contentsOf: file.url, encoding: .utf8) == Self.listsOnly)
        }
    }

    static let withBadEntries = """
        {"version": 2, "lists": [{"name": "Tech", "symbols": ["AAPL"]}], "alerts": [
          {"id": 1, "symbol": "AAPL", "condition": "above", "price": "190.5", "broker": "any", "rearm": false,
           "created": "2026-09-21T12:26:40Z", "state": "armed"},
          {"id": 2, "symbol": "AAPL", "condition": "above", "price": "19O.5", "broker": "any", "rearm": false,
           "created": "2026-09-21T12:26:40Z", "state": "armed", "note": "typed by hand"},
          {"id": 3, "symbol": "MSFT", "condition": "sideways", "broker": "any", "rearm": false,
           "created": "2026-09-21T12:26:40Z", "state": "armed"},
          "not an alert",
          {"id": 1, "symbol": "IBM", "condition": "below", "price": 100, "broker": "any", "rearm": true,
           "created": "2026-09-21T12:26:40Z", "state": "armed"}
        ]}
        """

    @Test func aCorruptEntryIsNamedAndKeptAndTheRestLoads() throws {
        try TemporaryDirectory.with { dir throws in
            let file = WatchlistFile(directory: dir.url)
            try Data(Self.withBadEntries.utf8).write(to: file.url)
            let store = WatchlistStore(file: file, seed: ["SPY"])
            let note = try #require(try store.load())
            guard case .unreadableAlerts(let path, let problems) = note else {
                Issue.record("expected unreadable alerts, got \(note)")
                return
            }
            #expect(path == file.url.path)
            #expect(problems == [
                "entry 2 (id 2): \"price\" is not a decimal: \"19O.5\"",
                "entry 3 (id 3): \"condition\" is \"sideways\", expected above, below or move",
                "entry 4: not a JSON object",
                "entry 5 (id 1): the id is used by an earlier alert",
            ])
            #expect(note.description.hasPrefix("could not read 4 alerts in \(file.url.path): entry 2 (id 2)"))
            #expect(note.description.contains("kept in the file as written"))
            // The lists and the good alert load; nothing is moved aside.
            #expect(store.symbols == ["AAPL"])
            #expect(store.book.alerts.alerts.map(\.id) == [1])
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter { $0.contains("corrupt") }.isEmpty)

            // A new alert does not take an id an unreadable entry holds.
            #expect(store.book.alerts.reservedIDs == [2, 3])
            _ = try store.edit { (book: inout WatchlistBook) throws(WatchlistBook.EditError) in
                book.alerts.add(Self.draft("MSFT", .below(exactDecimal("300"))), at: Self.setAt)
            }
            #expect(store.book.alerts.alerts.map(\.id) == [1, 4])
            // An edit writes the unreadable entries back as they were, every field kept.
            _ = try store.add(["MSFT"])
            let reloaded = WatchlistStore(file: file, seed: [])
            guard case .unreadableAlerts(_, let after)? = try reloaded.load() else {
                Issue.record("the unreadable entries were lost")
                return
            }
            #expect(after.count == 4)
            #expect(reloaded.symbols == ["AAPL", "MSFT"])
            let text = try String(contentsOf: file.url, encoding: .utf8)
            #expect(text.contains("\"19O.5\""))
            #expect(text.contains("\"typed by hand\""))
            #expect(text.contains("\"sideways\""))
            #expect(text.contains("\"not an alert\""))
        }
    }

    @Test(arguments: [
        ("{\"id\": 0}", "\"id\" is not a whole number from 1 to 1000000000"),
        ("{\"id\": 1}", "missing \"symbol\""),
        ("{\"id\": 1, \"symbol\": \"A B\"}", "\"symbol\": "),
        ("{\"id\": 1, \"symbol\": \"AAPL\", \"condition\": \"below\", \"price\": \"-1\"}", "\"price\" is -1, expected a price above 0"),
        ("{\"id\": 1, \"symbol\": \"AAPL\", \"condition\": \"move\", \"percent\": \"0\", \"reference\": \"1\"}", "\"percent\" is 0"),
        ("{\"id\": 1, \"symbol\": \"AAPL\", \"condition\": \"above\", \"price\": \"1\", \"broker\": \"any\", \"rearm\": \"yes\"}", "\"rearm\" is not true or false"),
        ("{\"id\": 1, \"symbol\": \"AAPL\", \"condition\": \"above\", \"price\": \"1\", \"broker\": \"any\", \"rearm\": true, \"created\": \"yesterday\"}", "\"created\" is not a date"),
        ("{\"id\": 1, \"symbol\": \"AAPL\", \"condition\": \"above\", \"price\": \"1\", \"broker\": \"any\", \"rearm\": true, \"created\": \"2026-09-21T12:26:40Z\", \"state\": \"sleeping\"}", "\"state\" is \"sleeping\""),
        ("{\"id\": 1, \"symbol\": \"AAPL\", \"condition\": \"above\", \"price\": \"1\", \"broker\": \"any\", \"rearm\": true, \"created\": \"2026-09-21T12:26:40Z\", \"state\": \"fired\", \"fired\": {\"at\": \"2026-09-21T12:26:40Z\", \"broker\": \"x\"}}", "missing \"fired.price\""),
    ])
    func eachFieldProblemIsNamed(entry: String, problem: String) throws {
        let json = try JSONDecoder().decode(StoredJSON.self, from: Data(entry.utf8))
        guard case .failure(let found) = AlertRecord.alert(from: json) else {
            Issue.record("\(entry) was read as an alert")
            return
        }
        #expect(found.description.hasPrefix(problem), "\(found)")
    }
}
