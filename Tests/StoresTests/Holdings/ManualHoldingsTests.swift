import Domain
import Foundation
import Testing
@testable import Stores

@Suite struct ManualHoldingsTests {
    /// 2026-03-05 14:07:09 UTC.
    static let pinned = Date(timeIntervalSince1970: 1_772_719_629)
    static let lotsSHA256 = "ccba7e13dc7da7357ff46322149a4e65383e31d9799ddc44cfea4be90b2c415d"

    static func holdings(in directory: URL) -> ManualHoldings {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return ManualHoldings(file: ManualHoldingsFile(directory: directory), now: { pinned }, calendar: utc)
    }

    /// Copies a fixture into `dir` and returns its path.
    static func fixture(_ name: String, in dir: TemporaryDirectory) throws -> String {
        let url = dir.path(name)
        try HoldingsFixtures.data(name).write(to: url)
        return url.path
    }

    static func write(_ text: String, to name: String, in dir: TemporaryDirectory) throws -> String {
        let url = dir.path(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static func importError(_ body: () throws(LotImportError) -> LotImportSummary) -> LotImportError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    static func decimal(_ text: String) -> ExactDecimal { ExactDecimal(parsing: text)! }

    @Test func anImportWritesTheBookWithEveryLotAndItsPositions() throws {
        try TemporaryDirectory.with { dir throws in
            let holdings = Self.holdings(in: dir.path("state/commonbroker"))
            let csv = try Self.fixture("lots.csv", in: dir)
            let summary = try holdings.importLots(fromFileAt: csv, again: false)
            #expect(summary == LotImportSummary(
                file: csv, lotCount: 6, symbolCount: 4, bookPath: holdings.file.url.path, bookLotCount: 6, wasImportedBefore: false))
            #expect(summary.description == "imported 6 lots of 4 symbols from \(csv) into \(holdings.file.url.path) (6 lots in all)")
            #expect(try TemporaryDirectory.permissions(holdings.file.url) == 0o600)
            #expect(try TemporaryDirectory.permissions(holdings.file.directory) == 0o700)

            let book = try holdings.book()
            #expect(book.imports.map(\.sha256) == [Self.lotsSHA256])
            #expect(book.imports.map(\.file) == [csv])
            #expect(book.imports.map(\.importedAt) == [Self.pinned])
            #expect(book.lots.map(\.line) == [2, 3, 4, 5, 6, 7])
            #expect(book.lots.map(\.symbol) == ["AAPL", "AAPL", "AAPL", "MSFT", "BRK.B", "TSLA"])

            #expect(try holdings.labelledPositions() == [
                ManualPosition(brokerLabel: nil, symbol: "BRK.B", quantity: 2, costBasis: Self.decimal("860.02"),
                               averageCost: Self.decimal("430.01"), realizedPnL: 0, lotCount: 1),
                // 8 of the first 10 sold: 1496.2 brought in, less 8/10 of 1360.4.
                ManualPosition(brokerLabel: "Fidelity IRA", symbol: "AAPL", quantity: 7, costBasis: Self.decimal("1173.53"),
                               averageCost: Self.decimal("167.64714286"), realizedPnL: Self.decimal("407.88"), lotCount: 3),
                ManualPosition(brokerLabel: "Fidelity IRA", symbol: "TSLA", quantity: -3, costBasis: Self.decimal("-631.15"),
                               averageCost: Self.decimal("210.38333333"), realizedPnL: 0, lotCount: 1),
                ManualPosition(brokerLabel: "Vanguard, taxable", symbol: "MSFT", quantity: 4, costBasis: Self.decimal("1014.8"),
                               averageCost: Self.decimal("253.7"), realizedPnL: 0, lotCount: 1),
            ])
        }
    }

    /// The file as any JSON reader sees it: amounts as exact strings, the documented keys.
    @Test func theFileIsTheDocumentedJSON() throws {
        try TemporaryDirectory.with { dir throws in
            let holdings = Self.holdings(in: dir.url)
            _ = try holdings.importLots(fromFileAt: try Self.write("date,symbol,quantity,price,fees,broker\n2024-01-02,brk/b,0.1,400.5,,Fidelity\n", to: "a.csv", in: dir), again: false)
            let text = try String(contentsOf: holdings.file.url, encoding: .utf8)
            #expect(text == """
                {
                  "imports" : [
                    {
                      "file" : "\(dir.path("a.csv").path)",
                      "importedAt" : "2026-03-05T14:07:09Z",
                      "lots" : [
                        {
                          "broker" : "Fidelity",
                          "date" : "2024-01-02",
                          "fees" : "0",
                          "line" : 2,
                          "price" : "400.5",
                          "quantity" : "0.1",
                          "symbol" : "BRK/B"
                        }
                      ],
                      "sha256" : "\(SHA256Digest.hex(of: Array("date,symbol,quantity,price,fees,broker\n2024-01-02,brk/b,0.1,400.5,,Fidelity\n".utf8)))"
                    }
                  ],
                  "version" : 1
                }

                """)
        }
    }

    @Test func theBookRoundTripsThroughItsJSON() throws {
        let lots = try LotsCSV.lots(in: try HoldingsFixtures.data("lots.csv"), file: "lots.csv", today: TradeDate(Self.pinned, in: Calendar(identifier: .gregorian))).get()
        let spreadsheet = try LotsCSV.lots(in: try HoldingsFixtures.data("lots-spreadsheet.csv"), file: "s.csv", today: TradeDate(parsing: "2026-01-01")!).get()
        let book = ManualHoldingsBook(imports: [
            ManualImport(sha256: Self.lotsSHA256, file: "/home/me/lots.csv", importedAt: Self.pinned, lots: lots),
            ManualImport(sha256: String(repeating: "ab", count: 32), file: "/home/me/s.csv", importedAt: Self.pinned + 60, lots: spreadsheet),
        ])
        let data = ManualHoldingsDocument.encoded(book)
        #expect(try ManualHoldingsDocument.book(from: data).get() == book)
        #expect(ManualHoldingsDocument.encoded(try ManualHoldingsDocument.book(from: data).get()) == data)
    }

    @Test func theSameFileIsNotImportedTwiceUnlessAskedAgain() throws {
        try TemporaryDirectory.with { dir throws in
            let holdings = Self.holdings(in: dir.url)
            let csv = try Self.fixture("lots.csv", in: dir)
            _ = try holdings.importLots(fromFileAt: csv, again: false)
            let before = try Data(contentsOf: holdings.file.url)

            // The same bytes under another name are the same file.
            let copy = try Self.fixture("lots.csv", in: dir) + ".copy"
            try FileManager.default.copyItem(atPath: csv, toPath: copy)
            let refusal = try #require(Self.importError { () throws(LotImportError) in try holdings.importLots(fromFileAt: copy, again: false) })
            #expect(refusal.lines == [
                "\(copy) was already imported on 2026-03-05 14:07 UTC (6 lots from \(csv), same bytes: sha256 ccba7e13dc7d…); "
                    + "nothing imported; to add its lots a second time, run the import again with --again",
            ])
            #expect(try Data(contentsOf: holdings.file.url) == before)

            let again = try holdings.importLots(fromFileAt: csv, again: true)
            #expect(again.wasImportedBefore)
            #expect(again.description == "imported again 6 lots of 4 symbols from \(csv) into \(holdings.file.url.path) (12 lots in all)")
            #expect(try holdings.book().imports.map(\.sha256) == [Self.lotsSHA256, Self.lotsSHA256])
            #expect(try holdings.labelledPositions().first { $0.symbol == "MSFT" }?.quantity == 8)
        }
    }

    @Test func anotherFileIsAddedToTheBook() throws {
        try TemporaryDirectory.with { dir throws in
            let holdings = Self.holdings(in: dir.url)
            _ = try holdings.importLots(fromFileAt: try Self.fixture("lots.csv", in: dir), again: false)
            let summary = try holdings.importLots(fromFileAt: try Self.fixture("lots-spreadsheet.csv", in: dir), again: false)
            #expect(summary.lotCount == 2)
            #expect(summary.bookLotCount == 8)
            #expect(!summary.wasImportedBefore)
            #expect(try holdings.book().imports.count == 2)
        }
    }

    @Test func aFileWithErrorsWritesNothing() throws {
        try TemporaryDirectory.with { dir throws in
            let holdings = Self.holdings(in: dir.path("state"))
            let bad = try Self.fixture("lots-with-errors.csv", in: dir)
            let error = try #require(Self.importError { () throws(LotImportError) in try holdings.importLots(fromFileAt: bad, again: false) })
            guard case .rejected(let rejection) = error else {
                Issue.record("expected the file's errors, got \(error)")
                return
            }
            #expect(rejection.totalCount == 8)
            #expect(error.lines.first == "\(bad):3:1: date is not YYYY-MM-DD, found \"01/03/2024\"; write it as YYYY-MM-DD, e.g. 2024-03-15 for 15 March 2024")
            #expect(error.lines.last == "\(bad): 8 errors, nothing imported; fix the file and run the import again")
            // Not even the state directory was made.
            #expect(!FileManager.default.fileExists(atPath: holdings.file.directory.path))

            _ = try holdings.importLots(fromFileAt: try Self.fixture("lots.csv", in: dir), again: false)
            let before = try Data(contentsOf: holdings.file.url)
            #expect(Self.importError { () throws(LotImportError) in try holdings.importLots(fromFileAt: bad, again: true) } != nil)
            #expect(try Data(contentsOf: holdings.file.url) == before)
            #expect(try TemporaryDirectory.listing(holdings.file.directory) == ["holdings.json", "holdings.lock"])
        }
    }

    @Test func totalsBeyondTheRangeWriteNothing() throws {
        try TemporaryDirectory.with { dir throws in
            let holdings = Self.holdings(in: dir.url)
            let csv = try Self.write("date,symbol,quantity,price\n2024-01-02,AAPL,50000000000,1\n2024-01-03,AAPL,50000000000,1\n", to: "big.csv", in: dir)
            let error = try #require(Self.importError { () throws(LotImportError) in try holdings.importLots(fromFileAt: csv, again: false) })
            #expect(error.lines == [
                "\(csv): the holding of AAPL cannot be totalled: 50000000000 + 50000000000 is beyond ±90000000000; nothing imported; check the quantities and prices of AAPL",
            ])
            #expect(!FileManager.default.fileExists(atPath: holdings.file.url.path))
        }
    }

    @Test func aFileThatCannotBeReadIsNamed() throws {
        try TemporaryDirectory.with { dir throws in
            let holdings = Self.holdings(in: dir.url)
            let missing = dir.path("none.csv").path
            #expect(Self.importError { () throws(LotImportError) in try holdings.importLots(fromFileAt: missing, again: false) }?.lines == [
                "cannot read \(missing): No such file or directory; check that the file exists and that you may read it",
            ])
            #expect(Self.importError { () throws(LotImportError) in try holdings.importLots(fromFileAt: dir.url.path, again: false) }?.lines == [
                "cannot read \(dir.url.path): Is a directory; check that the file exists and that you may read it",
            ])
        }
    }

    static let corruptBooks: [(String, String)] = [
        ("{oops", "not valid JSON"),
        ("[]", "not a JSON object"),
        ("{\"version\": 1}", "missing \"imports\""),
        ("{\"imports\": []}", "missing \"version\""),
        ("{\"version\": 0, \"imports\": []}", "unsupported version 0, expected 1"),
        ("{\"version\": 1, \"imports\": [{\"sha256\": \"x\", \"file\": \"/a\", \"importedAt\": \"2026-03-05T14:07:09Z\", \"lots\": []}]}",
         "import 1 has a bad sha256"),
        (book(lot: "{\"date\": \"2024-01-02\", \"symbol\": \"aapl\", \"quantity\": \"1\", \"price\": \"1\", \"fees\": \"0\", \"line\": 2}"),
         "import 1, the lot from line 2: symbol aapl is not upper-case"),
        (book(lot: "{\"date\": \"2024-01-02\", \"symbol\": \"AAPL\", \"quantity\": \"0\", \"price\": \"1\", \"fees\": \"0\", \"line\": 3}"),
         "import 1, the lot from line 3: AAPL has a quantity of zero"),
        (book(lot: "{\"date\": \"2024-01-02\", \"symbol\": \"AAPL\", \"quantity\": \"1\", \"price\": \"-1\", \"fees\": \"0\", \"line\": 4}"),
         "import 1, the lot from line 4: AAPL has a negative price"),
        (book(lot: "{\"date\": \"2024-02-30\", \"symbol\": \"AAPL\", \"quantity\": \"1\", \"price\": \"1\", \"fees\": \"0\", \"line\": 5}"),
         "bad value at imports.[0].lots.[0].date"),
    ]

    private static func book(lot: String) -> String {
        "{\"version\": 1, \"imports\": [{\"sha256\": \"\(lotsSHA256)\", \"file\": \"/a\", \"importedAt\": \"2026-03-05T14:07:09Z\", \"lots\": [\(lot)]}]}"
    }

    /// Read for the positions screen, a corrupt book is this broker's error, and is left where it is.
    @Test(arguments: corruptBooks)
    func aCorruptBookIsReportedWithTheFileAndKept(contents: String, reason: String) async throws {
        try await TemporaryDirectory.withAsync { dir async throws in
            let holdings = Self.holdings(in: dir.url)
            try Data(contents.utf8).write(to: holdings.file.url)
            let expected = "cannot use the holdings book \(holdings.file.url.path) (\(reason)); repair it, or move it away and import your lots again (the next import moves it aside for you)"
            do {
                _ = try await holdings.positions()
                Issue.record("a corrupt book gave positions")
            } catch {
                #expect((error as? BrokerError) == .badResponse(expected))
            }
            #expect(try Data(contentsOf: holdings.file.url) == Data(contents.utf8))
        }
    }

    /// An import moves a corrupt book aside, as the watchlist does, and imports nothing: whether to start
    /// a new book is the user's choice, made by running the import again.
    @Test func anImportMovesACorruptBookAsideAndImportsNothing() throws {
        try TemporaryDirectory.with { dir throws in
            let holdings = Self.holdings(in: dir.url)
            try Data("{oops".utf8).write(to: holdings.file.url)
            let csv = try Self.fixture("lots.csv", in: dir)
            let movedTo = holdings.file.url.path + ".corrupt-" + WatchlistStore.stamp(Self.pinned)
            let error = try #require(Self.importError { () throws(LotImportError) in try holdings.importLots(fromFileAt: csv, again: false) })
            #expect(error.lines == [
                "cannot use the holdings book \(holdings.file.url.path) (not valid JSON); moved it to \(movedTo) and imported nothing: "
                    + "run the import again to start a new book, or repair that file and move it back",
            ])
            #expect(try Data(contentsOf: URL(fileURLWithPath: movedTo)) == Data("{oops".utf8))
            #expect(!FileManager.default.fileExists(atPath: holdings.file.url.path))

            let summary = try holdings.importLots(fromFileAt: csv, again: false)
            #expect(summary.bookLotCount == 6)
            #expect(try Data(contentsOf: URL(fileURLWithPath: movedTo)) == Data("{oops".utf8))
        }
    }

    @Test func aBookFromANewerVersionIsLeftAlone() throws {
        try TemporaryDirectory.with { dir throws in
            let holdings = Self.holdings(in: dir.url)
            let newer = Data("{\"version\": 2, \"imports\": [], \"accounts\": {}}".utf8)
            try newer.write(to: holdings.file.url)
            let csv = try Self.fixture("lots.csv", in: dir)
            let error = try #require(Self.importError { () throws(LotImportError) in try holdings.importLots(fromFileAt: csv, again: false) })
            #expect(error.lines == [
                "the holdings book \(holdings.file.url.path) is version 2, which only a newer commonbroker reads (this one reads version 1); use the newer commonbroker",
            ])
            #expect(try Data(contentsOf: holdings.file.url) == newer)
            #expect(try TemporaryDirectory.listing(dir.url).filter { $0.contains("corrupt") } == [])
        }
    }

    @Test func noBookYetHasNoPositions() async throws {
        try await TemporaryDirectory.withAsync { dir async throws in
            let holdings = Self.holdings(in: dir.path("never-made"))
            #expect(try await holdings.positions() == [])
            #expect(try holdings.book() == ManualHoldingsBook())
            #expect(!FileManager.default.fileExists(atPath: holdings.file.directory.path))
        }
    }

    /// What the positions screen gets: every holding under the id "manual", branded "Held elsewhere".
    @Test func asAPositionServiceItListsTheBooksPositionsUnderManual() async throws {
        try await TemporaryDirectory.withAsync { dir async throws in
            let holdings = Self.holdings(in: dir.url)
            _ = try holdings.importLots(fromFileAt: try Self.fixture("lots.csv", in: dir), again: false)
            let service: any PositionService = holdings
            #expect(service.branding == ServiceBranding(id: "manual", name: "Held elsewhere", glyph: "H", color: .white))
            let positions = try await service.positions()
            #expect(positions.map(\.brokerID) == ["manual", "manual", "manual", "manual"])
            #expect(positions.map(\.symbol) == ["BRK.B", "AAPL", "TSLA", "MSFT"])
            #expect(positions[1] == Position(
                brokerID: "manual", symbol: "AAPL", quantity: 7, averageCost: Self.decimal("167.64714286"),
                costBasis: Self.decimal("1173.53"), realizedPnL: Self.decimal("407.88"), account: "Fidelity IRA"))
            // The label is the position's account, so the screen and print say where the lots are.
            #expect(positions.map(\.account) == (try holdings.labelledPositions()).map(\.brokerLabel))
        }
    }

    /// Imports from several processes (here, stores on several threads) each re-read the book under its
    /// lock, so every one lands.
    @Test func importsAtTheSameTimeAllLand() throws {
        try TemporaryDirectory.with { dir throws in
            let files = try (0..<8).map { index in
                try Self.write("date,symbol,quantity,price\n2024-01-02,S\(index),\(index + 1),10\n", to: "f\(index).csv", in: dir)
            }
            let failures = ManualHoldingsTestFailures()
            DispatchQueue.concurrentPerform(iterations: files.count) { index in
                do {
                    _ = try Self.holdings(in: dir.path("state")).importLots(fromFileAt: files[index], again: false)
                } catch {
                    failures.append("\(error)")
                }
            }
            #expect(failures.all == [])
            let book = try Self.holdings(in: dir.path("state")).book()
            #expect(Set(book.lots.map(\.symbol)) == Set((0..<8).map { "S\($0)" }))
            #expect(book.imports.count == 8)
        }
    }

    @Test func aLotAfterTodayInTheUsersTimeZoneIsRefused() throws {
        try TemporaryDirectory.with { dir throws in
            let csv = try Self.write("date,symbol,quantity,price\n2026-03-06,AAPL,1,1\n", to: "a.csv", in: dir)
            let error = Self.importError { () throws(LotImportError) in try Self.holdings(in: dir.url).importLots(fromFileAt: csv, again: false) }
            #expect(error?.lines.first == "\(csv):2:1: date is after today (2026-03-05), found \"2026-03-06\"; check the year: only lots already traded can be imported")
            var tokyo = Calendar(identifier: .gregorian)
            tokyo.timeZone = TimeZone(identifier: "Asia/Tokyo")!
            // 14:07 UTC is 23:07 in Tokyo: still the 5th. One hour later it is the 6th there.
            let later = ManualHoldings(file: ManualHoldingsFile(directory: dir.url), now: { Self.pinned + 3600 }, calendar: tokyo)
            #expect(try later.importLots(fromFileAt: csv, again: false).lotCount == 1)
        }
    }
}

/// Errors collected from several threads.
final class ManualHoldingsTestFailures: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [String] = []

    func append(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        messages.append(message)
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return messages
    }
}
