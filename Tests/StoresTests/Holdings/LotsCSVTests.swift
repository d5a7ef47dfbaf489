import Domain
import Foundation
import Testing
@testable import Stores

@Suite struct LotsCSVTests {
    static let today = TradeDate(year: 2026, month: 3, day: 5)!

    private func lots(_ text: String) -> Result<[ManualLot], LotsFileRejection> {
        LotsCSV.lots(in: Data(text.utf8), file: "lots.csv", today: Self.today)
    }

    /// The rejection's lines (each error, then the summary), or "imported N" when there was none.
    private func messages(_ text: String) -> [String] {
        switch lots(text) {
        case .success(let lots): ["imported \(lots.count)"]
        case .failure(let rejection): rejection.lines
        }
    }

    /// The single error of a file whose header is right and whose one row is `row`.
    private func rowError(_ row: String, header: String = "date,symbol,quantity,price,fees,broker") -> String {
        let lines = messages(header + "\n" + row + "\n")
        return lines.count == 2 ? lines[0] : "expected one error, got \(lines)"
    }

    private static func day(_ text: String) -> TradeDate { TradeDate(parsing: text)! }

    @Test func aFullFileReadsExactly() throws {
        let read = try lots("""
            date,symbol,quantity,price,fees,broker
            2024-03-15,aapl,10,150.25,1.00,Fidelity IRA
            2024-03-16, msft , -2.5 ,0.1,,
            """).get()
        #expect(read == [
            ManualLot(date: Self.day("2024-03-15"), symbol: "AAPL", quantity: 10, price: ExactDecimal(parsing: "150.25")!,
                      fees: 1, brokerLabel: "Fidelity IRA", line: 2),
            ManualLot(date: Self.day("2024-03-16"), symbol: "MSFT", quantity: ExactDecimal(parsing: "-2.5")!,
                      price: ExactDecimal(parsing: "0.1")!, fees: 0, brokerLabel: nil, line: 3),
        ])
        // 0.1 is exact (no Double on the way): 2.5 × 0.1 is exactly 0.25.
        #expect(try read[1].cost() == ExactDecimal(parsing: "-0.25")!)
    }

    @Test func theHeaderMayNameColumnsInAnyOrderAndCaseAndLeaveOutTheOptionalOnes() throws {
        let read = try lots("PRICE,Symbol,Date,QUANTITY\n150,IBM,2024-01-02,3\n").get()
        #expect(read == [ManualLot(date: Self.day("2024-01-02"), symbol: "IBM", quantity: 3, price: 150, line: 2)])
        let withBroker = try lots(" broker ,date,symbol,quantity,price\n\"Schwab, joint\",2024-01-02,IBM,3,150\n").get()
        #expect(withBroker.map(\.brokerLabel) == ["Schwab, joint"])
    }

    @Test func theSpreadsheetFixtureReadsWithItsByteOrderMarkCRLFAndQuotes() throws {
        let data = try HoldingsFixtures.data("lots-spreadsheet.csv")
        let read = try LotsCSV.lots(in: data, file: "lots-spreadsheet.csv", today: Self.today).get()
        #expect(read == [
            ManualLot(date: Self.day("2024-01-02"), symbol: "AAPL", quantity: ExactDecimal(parsing: "0.5")!,
                      price: ExactDecimal(parsing: "185.64")!, brokerLabel: "Schwab \"One\"", line: 2),
            ManualLot(date: Self.day("2024-01-03"), symbol: "MSFT", quantity: 1,
                      price: ExactDecimal(parsing: "370.60")!, brokerLabel: "Schwab, joint", line: 4),
        ])
    }

    @Test func aFileWithoutAHeaderIsRefused() {
        #expect(messages("2024-01-02,AAPL,10,150\n") == [
            "lots.csv:1:1: the first row is not a header, found \"2024-01-02\"; add a first line naming the columns, e.g. date,symbol,quantity,price,fees,broker",
            "lots.csv: 1 error, nothing imported; fix the file and run the import again",
        ])
        #expect(messages("") == [
            "lots.csv:1:1: the file holds no header and no lots; start with the header date,symbol,quantity,price,fees,broker, then one lot a line",
            "lots.csv: 1 error, nothing imported; fix the file and run the import again",
        ])
        #expect(messages("\n\n") == messages(""))
        #expect(messages("date,symbol,quantity,price\n\n") == [
            "lots.csv:2:1: the file holds a header but no lots; add one lot a line after the header, e.g. 2024-03-15,AAPL,10,150.25",
            "lots.csv: 1 error, nothing imported; fix the file and run the import again",
        ])
    }

    @Test func headerErrorsAreEachReported() {
        #expect(messages("date,symbol,qty,price,notes\n2024-01-02,AAPL,1,2,x\n") == [
            "lots.csv:1:13: unknown column, found \"qty\"; if it holds the quantity, name it quantity; the columns are date, symbol, quantity, price, fees, broker, in any order",
            "lots.csv:1:23: unknown column, found \"notes\"; the columns are date, symbol, quantity, price, fees, broker, in any order",
            "lots.csv: 2 errors, nothing imported; fix the file and run the import again",
        ])
        #expect(messages("date,symbol,quantity,Price,price\n") == [
            "lots.csv:1:28: the price column is named twice, found \"price\"; keep one of them (the first is at 1:22)",
            "lots.csv: 1 error, nothing imported; fix the file and run the import again",
        ])
        #expect(messages("date,symbol,quantity,price,\n") == [
            "lots.csv:1:28: a column has no name; name it (date, symbol, quantity, price, fees, broker) or remove it, and any comma at the end of the header",
            "lots.csv: 1 error, nothing imported; fix the file and run the import again",
        ])
        #expect(messages("symbol,fees\nAAPL,1\n") == [
            "lots.csv:1:1: the header has no date, quantity and price columns, found \"symbol,fees\"; every lot needs date, symbol, quantity and price; fees and broker are optional",
            "lots.csv: 1 error, nothing imported; fix the file and run the import again",
        ])
        #expect(messages("date,symbol,quantity\n") == [
            "lots.csv:1:1: the header has no price column, found \"date,symbol,quantity\"; every lot needs date, symbol, quantity and price; fees and broker are optional",
            "lots.csv: 1 error, nothing imported; fix the file and run the import again",
        ])
    }

    @Test func badDates() {
        #expect(rowError(",AAPL,1,2,,") == "lots.csv:2:1: date is missing; write the day of the trade as YYYY-MM-DD, e.g. 2024-03-15")
        #expect(rowError("03/15/2024,AAPL,1,2,,") == "lots.csv:2:1: date is not YYYY-MM-DD, found \"03/15/2024\"; write it as YYYY-MM-DD, e.g. 2024-03-15 for 15 March 2024")
        #expect(rowError("2024-3-15,AAPL,1,2,,") == "lots.csv:2:1: date is not YYYY-MM-DD, found \"2024-3-15\"; write it as YYYY-MM-DD, e.g. 2024-03-15 for 15 March 2024")
        #expect(rowError("2023-02-29,AAPL,1,2,,") == "lots.csv:2:1: no such day, found \"2023-02-29\"; check the month (01-12), the day of the month and the year (1000-9999)")
        #expect(rowError("2024-13-01,AAPL,1,2,,") == "lots.csv:2:1: no such day, found \"2024-13-01\"; check the month (01-12), the day of the month and the year (1000-9999)")
        #expect(rowError("2026-03-06,AAPL,1,2,,") == "lots.csv:2:1: date is after today (2026-03-05), found \"2026-03-06\"; check the year: only lots already traded can be imported")
        #expect(messages("date,symbol,quantity,price\n2026-03-05,AAPL,1,2\n2024-02-29,AAPL,1,2\n") == ["imported 2"], "today and a leap day are fine")
    }

    @Test func badSymbols() {
        #expect(rowError("2024-01-02,,1,2,,") == "lots.csv:2:12: symbol is missing; write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B")
        #expect(rowError("2024-01-02,AA PL,1,2,,") == "lots.csv:2:12: symbol contains a space, found \"AA PL\"; write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B")
        #expect(rowError("2024-01-02,$AAPL,1,2,,") == "lots.csv:2:12: symbol contains '$', found \"$AAPL\"; write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B")
        #expect(rowError("2024-01-02,A\u{1B}[2J,1,2,,") == "lots.csv:2:12: symbol contains '\\u{1b}', found \"A\\u{1b}[2J\"; write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B")
        #expect(rowError("2024-01-02,ABCDEFGHIJKLMNOP,1,2,,") == "lots.csv:2:12: symbol is longer than 15 characters, found \"ABCDEFGHIJKLMNOP\"; write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B")
    }

    @Test func badQuantities() {
        #expect(rowError("2024-01-02,AAPL,,2,,") == "lots.csv:2:17: quantity is missing; write the shares: positive when bought, negative when sold, e.g. 10 or -5")
        let notANumber = "write a plain number: digits, an optional - and decimal point, no $ or thousands separators, e.g. 10 or -2.5"
        #expect(rowError("2024-01-02,AAPL,ten,2,,") == "lots.csv:2:17: quantity is not a plain number, found \"ten\"; \(notANumber)")
        #expect(rowError("2024-01-02,AAPL,\"1,000\",2,,") == "lots.csv:2:17: quantity is not a plain number, found \"1,000\"; \(notANumber)")
        #expect(rowError("2024-01-02,AAPL,+5,2,,") == "lots.csv:2:17: quantity is not a plain number, found \"+5\"; \(notANumber)")
        #expect(rowError("2024-01-02,AAPL,.5,2,,") == "lots.csv:2:17: quantity is not a plain number, found \".5\"; \(notANumber)")
        #expect(rowError("2024-01-02,AAPL,0,2,,") == "lots.csv:2:17: quantity is zero, found \"0\"; a lot has shares: positive when bought, negative when sold; remove the row if it has none")
        #expect(rowError("2024-01-02,AAPL,-0.000,2,,") == "lots.csv:2:17: quantity is zero, found \"-0.000\"; a lot has shares: positive when bought, negative when sold; remove the row if it has none")
        #expect(rowError("2024-01-02,AAPL,123456789012,2,,") == "lots.csv:2:17: quantity is beyond ±90000000000, found \"123456789012\"; check the number: no lot is that large")
        #expect(rowError("2024-01-02,AAPL,1000000,1000000,,") == "lots.csv:2:17: quantity × price + fees is beyond ±90000000000, found \"1000000 × 1000000\"; check the quantity and the price")
    }

    @Test func badPricesAndFees() {
        #expect(rowError("2024-01-02,AAPL,1,,,") == "lots.csv:2:19: price is missing; write the price of one share, e.g. 150.25")
        #expect(rowError("2024-01-02,AAPL,1,$5,,") == "lots.csv:2:19: price is not a plain number, found \"$5\"; write a plain number: digits, an optional - and decimal point, no $ or thousands separators, e.g. 10 or -2.5")
        #expect(rowError("2024-01-02,AAPL,1,-5,,") == "lots.csv:2:19: price is negative, found \"-5\"; write the price of one share without a sign; shares sold have a negative quantity instead")
        #expect(rowError("2024-01-02,AAPL,1,5,1.0.0,") == "lots.csv:2:21: fees is not a plain number, found \"1.0.0\"; write a plain number: digits, an optional - and decimal point, no $ or thousands separators, e.g. 10 or -2.5")
        #expect(rowError("2024-01-02,AAPL,1,5,-1,") == "lots.csv:2:21: fees are negative, found \"-1\"; write what the trade cost you as a positive amount, or leave it empty")
        #expect(messages("date,symbol,quantity,price\n2024-01-02,AAPL,1,0\n") == ["imported 1"], "a price of zero is a gift or a spin-off")
    }

    @Test func badBrokerLabels() {
        let long = String(repeating: "x", count: 33)
        #expect(rowError("2024-01-02,AAPL,1,5,,\(long)") == "lots.csv:2:22: broker label is longer than 32 characters, found \"\(long.prefix(40))\"; name where the shares are held in up to 32 printable characters, e.g. Fidelity IRA")
        // A line break inside quotes is a control character in a label; the next row's line is still right.
        #expect(messages("date,symbol,quantity,price,broker\n2024-01-02,AAPL,1,5,\"two\nlines\"\n2024-01-02,AAPL,0,5,\n") == [
            "lots.csv:2:21: broker label holds a control character, found \"two\\u{a}lines\"; name where the shares are held in up to 32 printable characters, e.g. Fidelity IRA",
            "lots.csv:4:17: quantity is zero, found \"0\"; a lot has shares: positive when bought, negative when sold; remove the row if it has none",
            "lots.csv: 2 errors, nothing imported; fix the file and run the import again",
        ])
        #expect(rowError("2024-01-02,AAPL,1,5,,\"\u{1B}[31mred\"") == "lots.csv:2:22: broker label holds a control character, found \"\\u{1b}[31mred\"; name where the shares are held in up to 32 printable characters, e.g. Fidelity IRA")
    }

    @Test func rowsWithTooFewOrTooManyValues() {
        #expect(rowError("2024-01-02,AAPL,1") == "lots.csv:2:18: this row has 3 values but the header names 6 columns; give every column a value, in the header's order (date,symbol,quantity,price,fees,broker); leave an optional one empty between its commas")
        #expect(rowError("2024-01-02,AAPL,1,1,000.50,0,Fidelity") == "lots.csv:2:30: a value beyond the header's 6 columns, found \"Fidelity\"; remove it; a value that holds a comma needs quotes, and numbers take no thousands separators")
    }

    @Test func everyBadValueOfARowIsReportedInFileOrder() {
        #expect(messages("date,symbol,quantity,price,fees\n2024-13-01,AA PL,ten,-5,x\n2024-01-02,IBM,1,2,3\n,,,,\n") == [
            "lots.csv:2:1: no such day, found \"2024-13-01\"; check the month (01-12), the day of the month and the year (1000-9999)",
            "lots.csv:2:12: symbol contains a space, found \"AA PL\"; write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B",
            "lots.csv:2:18: quantity is not a plain number, found \"ten\"; write a plain number: digits, an optional - and decimal point, no $ or thousands separators, e.g. 10 or -2.5",
            "lots.csv:2:22: price is negative, found \"-5\"; write the price of one share without a sign; shares sold have a negative quantity instead",
            "lots.csv:2:25: fees is not a plain number, found \"x\"; write a plain number: digits, an optional - and decimal point, no $ or thousands separators, e.g. 10 or -2.5",
            "lots.csv:4:1: date is missing; write the day of the trade as YYYY-MM-DD, e.g. 2024-03-15",
            "lots.csv:4:2: symbol is missing; write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B",
            "lots.csv:4:3: quantity is missing; write the shares: positive when bought, negative when sold, e.g. 10 or -5",
            "lots.csv:4:4: price is missing; write the price of one share, e.g. 150.25",
            "lots.csv: 9 errors, nothing imported; fix the file and run the import again",
        ])
    }

    @Test func aRowWithBrokenQuotingIsReportedForItsQuotingOnly() {
        #expect(messages("date,symbol,quantity,price\n2024-01-02,\"GOOG\"x,2,140\n2024-01-02,A\"B,0,1\n") == [
            "lots.csv:2:18: text after the closing quote of a value, found \"x\"; put the whole value in quotes, and write a quote inside it as two (\"\")",
            "lots.csv:3:13: a quote inside a value that does not start with one, found \"A\"B\"; put the whole value in quotes, and write a quote inside it as two (\"\")",
            "lots.csv: 2 errors, nothing imported; fix the file and run the import again",
        ])
    }

    /// Found while writing Fuzz/LotsCSVFuzzer.swift (a file that never hangs): each row was checked against
    /// every quoting error, so 20,000 rows with a stray quote each took 11 s in a release build, 100,000
    /// rows minutes. Rows and errors are now walked together, and this file reads in a fraction of that.
    @Test func aLargeFileWithBrokenQuotingOnEveryRowIsReportedRowByRow() {
        let rows = (1...20_000).map { "2024-01-02,\"AAPL\"x\($0),1,1\n" }.joined()
        guard case .failure(let rejection) = lots("date,symbol,quantity,price\n" + rows + "2024-01-02,MSFT,zero,1\n") else {
            Issue.record("the file was accepted")
            return
        }
        #expect(rejection.totalCount == 20_001)
        #expect(rejection.errors.count == LotsCSV.maximumReportedErrors)
        #expect(rejection.errors.map(\.position) == (2...21).map { TextPosition(line: $0, column: 18) })
        #expect(rejection.errors.allSatisfy { $0.problem == "text after the closing quote of a value" })
    }

    /// A quoting error between two rows' positions belongs to neither, and a row after a broken one is
    /// read for its values.
    @Test func onlyTheRowWithBrokenQuotingIsSkipped() {
        #expect(messages("date,symbol,quantity,price\n2024-01-02,\"A\"x,1,1\n2024-01-02,B,y,1\n2024-01-02,C\"D,1,1\n2024-01-02,E,1,-1\n") == [
            "lots.csv:2:15: text after the closing quote of a value, found \"x\"; put the whole value in quotes, and write a quote inside it as two (\"\")",
            "lots.csv:3:14: quantity is not a plain number, found \"y\"; " + LotValueReader.numberFix,
            "lots.csv:4:13: a quote inside a value that does not start with one, found \"C\"D\"; put the whole value in quotes, and write a quote inside it as two (\"\")",
            "lots.csv:5:16: price is negative, found \"-1\"; write the price of one share without a sign; shares sold have a negative quantity instead",
            "lots.csv: 4 errors, nothing imported; fix the file and run the import again",
        ])
    }

    @Test func theErrorsFixtureReportsEachBadValue() throws {
        let data = try HoldingsFixtures.data("lots-with-errors.csv")
        guard case .failure(let rejection) = LotsCSV.lots(in: data, file: "lots-with-errors.csv", today: Self.today) else {
            Issue.record("the file with errors was accepted")
            return
        }
        #expect(rejection.errors.map(\.position) == [
            TextPosition(line: 3, column: 1), TextPosition(line: 4, column: 1), TextPosition(line: 5, column: 12),
            TextPosition(line: 5, column: 18), TextPosition(line: 5, column: 22), TextPosition(line: 5, column: 25),
            TextPosition(line: 6, column: 37), TextPosition(line: 7, column: 18),
        ])
        #expect(rejection.totalCount == 8)
    }

    @Test func atMostTwentyErrorsAreListedAndTheRestCounted() {
        let rows = (1...25).map { "2024-01-02,AAPL,x\($0),1" }.joined(separator: "\n")
        let lines = messages("date,symbol,quantity,price\n" + rows + "\n")
        #expect(lines.count == 22)
        #expect(lines[0].hasPrefix("lots.csv:2:17: quantity is not a plain number, found \"x1\""))
        #expect(lines[19].hasPrefix("lots.csv:21:17: quantity is not a plain number, found \"x20\""))
        #expect(lines[20] == "… and 5 more")
        #expect(lines[21] == "lots.csv: 25 errors, nothing imported; fix the file and run the import again")
    }

    @Test func foundTextIsCutAndEscaped() {
        let long = String(repeating: "9", count: 30) + "x" + String(repeating: "y", count: 30)
        #expect(rowError("2024-01-02,AAPL,\(long),1,,").contains("found \"\(long.prefix(40))…\";"))
        let error = LotsFileError(file: "a\u{1B}]0;.csv", position: TextPosition(line: 1, column: 2), problem: "p", found: "\u{9B}x", fix: "f")
        #expect(error.description == "a\\u{1b}]0;.csv:1:2: p, found \"\\u{9b}x\"; f")
    }
}

/// The sample files under Tests/Fixtures/holdings, found from this file's path.
enum HoldingsFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // Holdings
        .deletingLastPathComponent() // StoresTests
        .deletingLastPathComponent() // Tests
        .appendingPathComponent("Fixtures/holdings", isDirectory: true)

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }
}
