import Foundation
import Testing
@testable import CommonBrokerApp
@testable import Stores

@Suite struct ImportLotsCommandTests {
    /// 2026-03-05 14:07:09 UTC.
    static let pinned = Date(timeIntervalSince1970: 1_772_719_629)

    private static func outcome(_ file: String, again: Bool = false, environment: [String: String]) -> ImportLotsCommand.Outcome {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        return ImportLotsCommand.outcome(file: file, again: again, environment: environment) {
            ManualHoldings(file: $0, now: { pinned }, calendar: utc)
        }
    }

    @Test func aGoodFileIsImportedIntoTheStateDirectory() throws {
        let dir = try TemporaryDirectory()
        let csv = try dir.file("lots.csv", contents: "date,symbol,quantity,price,fees,broker\n2024-01-02,AAPL,10,185.64,1,Fidelity\n2024-01-03,MSFT,2,370.6,,\n")
        let environment = ["XDG_STATE_HOME": dir.path + "/state", "HOME": dir.path]
        let book = dir.path + "/state/commonbroker/holdings.json"
        #expect(Self.outcome(csv, environment: environment) == ImportLotsCommand.Outcome(
            status: 0, output: "imported 2 lots of 2 symbols from \(csv) into \(book) (2 lots in all)\n", errors: []))
        #expect(FileManager.default.fileExists(atPath: book))

        let again = Self.outcome(csv, environment: environment)
        #expect(again.status == 1)
        #expect(again.output == "")
        #expect(again.errors.count == 1)
        #expect(again.errors.first?.hasSuffix("to add its lots a second time, run the import again with --again") == true)
        #expect(Self.outcome(csv, again: true, environment: environment).output
            == "imported again 2 lots of 2 symbols from \(csv) into \(book) (4 lots in all)\n")
    }

    @Test func aBadFileGivesEveryErrorAndWritesNothing() throws {
        let dir = try TemporaryDirectory()
        let csv = try dir.file("bad.csv", contents: "date,symbol,quantity,price\n2024-01-02,AAPL,ten,1\n2024-01-02,MS FT,1,-1\n")
        let outcome = Self.outcome(csv, environment: ["XDG_STATE_HOME": dir.path + "/state", "HOME": dir.path])
        #expect(outcome == ImportLotsCommand.Outcome(status: 1, output: "", errors: [
            "\(csv):2:17: quantity is not a plain number, found \"ten\"; write a plain number: digits, an optional - and decimal point, no $ or thousands separators, e.g. 10 or -2.5",
            "\(csv):3:12: symbol contains a space, found \"MS FT\"; write the ticker: 1-15 letters, digits, . - / ^, e.g. AAPL or BRK.B",
            "\(csv):3:20: price is negative, found \"-1\"; write the price of one share without a sign; shares sold have a negative quantity instead",
            "\(csv): 3 errors, nothing imported; fix the file and run the import again",
        ]))
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/state"))
    }

    @Test func theBookGoesUnderHomeWithoutXDGStateHome() throws {
        let dir = try TemporaryDirectory()
        let csv = try dir.file("a.csv", contents: "date,symbol,quantity,price\n2024-01-02,AAPL,1,1\n")
        #expect(Self.outcome(csv, environment: ["HOME": dir.path]).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.path + "/.local/state/commonbroker/holdings.json"))
    }

    @Test func noHomeIsAClearError() {
        #expect(Self.outcome("a.csv", environment: [:]) == ImportLotsCommand.Outcome(status: 1, output: "", errors: [
            "cannot find the config file: HOME is not set; set HOME or XDG_CONFIG_HOME to an absolute path, or pass --config PATH",
        ]))
    }
}
