import Foundation
import TestSupport
import Testing

/// `commonbroker import lots` as a user runs it: the real binary, the sample files under
/// Tests/Fixtures/holdings, and a state directory of its own.
@Suite struct ImportLotsEndToEndTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/holdings", isDirectory: true)

    var binary: String { CommonBrokerBinary.path }

    private static func fixture(_ name: String) -> String {
        fixtures.appendingPathComponent(name).path
    }

    @Test func aGoodFileImportsABadOneChangesNothingAndTheSameOneIsRefused() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("cb-lots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let environment = ["PATH": "/usr/bin:/bin", "HOME": work.path, "XDG_STATE_HOME": work.path + "/state"]
        let book = work.path + "/state/commonbroker/holdings.json"

        let good = Self.fixture("lots.csv")
        let imported = try await Subprocess.run(binary, ["import", "lots", good], environment: environment)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.output == "imported 6 lots of 4 symbols from \(good) into \(book) (6 lots in all)\n")
        let written = try Data(contentsOf: URL(fileURLWithPath: book))
        let document = try #require(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        #expect(document["version"] as? Int == 1)
        #expect(((document["imports"] as? [[String: Any]])?.first?["lots"] as? [Any])?.count == 6)

        let bad = Self.fixture("lots-with-errors.csv")
        let rejected = try await Subprocess.run(binary, ["import", "lots", bad], environment: environment)
        #expect(rejected.status == 1)
        let numberFix = "write a plain number: digits, an optional - and decimal point, no $ or thousands separators, e.g. 10 or -2.5"
        #expect(rejected.output.split(separator: "\n").map(String.init) == [
            "commonbroker: \(bad):3:1: date is not YYYY-MM-DD, found \"01/03/2024\"; write it as YYYY-MM-DD, e.g. 2024-03-15 for 15 March 2024",
            "commonbroker: \(bad):4:1: no such day, found \"2024-02-30\"; check the month (01-12), the day of the month and the year (1000-9999)",
            "commonbroker: \(bad):5:12: symbol contains a space, found \"AA PL\"; write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B",
            "commonbroker: \(bad):5:18: quantity is not a plain number, found \"ten\"; \(numberFix)",
            "commonbroker: \(bad):5:22: price is not a plain number, found \"$5\"; \(numberFix)",
            "commonbroker: \(bad):5:25: fees are negative, found \"-1\"; write what the trade cost you as a positive amount, or leave it empty",
            "commonbroker: \(bad):6:37: a value beyond the header's 6 columns, found \"extra\"; remove it; a value that holds a comma needs quotes, and numbers take no thousands separators",
            "commonbroker: \(bad):7:18: text after the closing quote of a value, found \"x\"; put the whole value in quotes, and write a quote inside it as two (\"\")",
            "commonbroker: \(bad): 8 errors, nothing imported; fix the file and run the import again",
        ])
        #expect(try Data(contentsOf: URL(fileURLWithPath: book)) == written)

        let again = try await Subprocess.run(binary, ["import", "lots", good], environment: environment)
        #expect(again.status == 1)
        #expect(again.output.hasPrefix("commonbroker: \(good) was already imported on "), "\(again.output)")
        #expect(again.output.hasSuffix("to add its lots a second time, run the import again with --again\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: book)) == written)

        let forced = try await Subprocess.run(binary, ["import", "lots", good, "--again"], environment: environment)
        #expect(forced.status == 0, "\(forced.output)")
        #expect(forced.output == "imported again 6 lots of 4 symbols from \(good) into \(book) (12 lots in all)\n")
    }

    /// A control sequence inside the file is spelled out on stderr, never sent to the terminal.
    @Test func textFromTheFileReachesTheTerminalEscaped() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("cb-lots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let csv = work.appendingPathComponent("evil.csv").path
        try Data("date,symbol,quantity,price\n2024-01-02,\u{1B}]0;pwned\u{7},1,1\n".utf8).write(to: URL(fileURLWithPath: csv))
        let result = try await Subprocess.run(binary, ["import", "lots", csv], environment: [
            "PATH": "/usr/bin:/bin", "HOME": work.path, "XDG_STATE_HOME": work.path + "/state",
        ])
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("commonbroker: \(csv):2:12: symbol contains '\\u{1b}', found \"\\u{1b}]0;pwned\\u{7}\";"), "\(result.output)")
        #expect(!result.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }
}
