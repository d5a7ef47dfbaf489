import Testing
@testable import CommonBrokerApp

@Suite struct ImportLotsArgumentsTests {
    private func parse(_ arguments: String...) -> Result<Invocation, UsageError> {
        CommandLineArguments.parse(arguments)
    }

    private func usageMessage(_ arguments: String...) -> String {
        switch CommandLineArguments.parse(arguments) {
        case .success(let invocation): "parsed as \(invocation)"
        case .failure(let error): error.description
        }
    }

    @Test func importLotsTakesAFileAndAgain() throws {
        #expect(try parse("import", "lots", "lots.csv").get() == .importLots(file: "lots.csv", again: false))
        #expect(try parse("import", "lots", "lots.csv", "--again").get() == .importLots(file: "lots.csv", again: true))
        #expect(try parse("--again", "import", "lots", "~/My Lots.csv").get() == .importLots(file: "~/My Lots.csv", again: true))
        #expect(try parse("import", "lots", "--", "-odd.csv").get() == .importLots(file: "-odd.csv", again: false))
        #expect(try parse("import", "lots", "lots.csv", "--help").get() == .help)
    }

    @Test func importNeedsLotsAndOneFile() {
        #expect(usageMessage("import") == "import needs what and from where: commonbroker import lots FILE.csv")
        #expect(usageMessage("import", "lots") == "import needs what and from where: commonbroker import lots FILE.csv")
        #expect(usageMessage("import", "lots", "") == "import lots needs a file name: commonbroker import lots FILE.csv")
        #expect(usageMessage("import", "stocks", "a.csv") == "cannot import 'stocks': the one thing to import is lots: commonbroker import lots FILE.csv")
        #expect(usageMessage("import", "lots", "a.csv", "b.csv") == "unexpected argument 'b.csv'; import lots takes one file; see commonbroker --help")
        #expect(usageMessage("import", "l\u{1B}[2Jots") == "cannot import 'l\\u{1b}[2Jots': the one thing to import is lots: commonbroker import lots FILE.csv")
    }

    @Test func theWatchlistsOptionsDoNotApplyToImport() {
        #expect(usageMessage("--demo", "import", "lots", "a.csv") == "option '--demo' does not apply to import lots, which takes a file and --again")
        #expect(usageMessage("import", "lots", "a.csv", "--config", "c.json") == "option '--config' does not apply to import lots, which takes a file and --again")
        #expect(usageMessage("import", "lots", "a.csv", "--json") == "--json only applies to the print and alerts commands: commonbroker print --json")
        #expect(usageMessage("print", "import") == "unexpected argument 'import'; print takes positions or orders, or nothing for quotes; see commonbroker --help")
        #expect(usageMessage("import", "lots", "a.csv", "--agian") == "unknown option '--agian' (did you mean '--again'?); see commonbroker --help")
    }

    @Test func againOnlyAppliesToImport() {
        #expect(usageMessage("--again") == "--again only applies to importing lots: commonbroker import lots FILE.csv --again")
        #expect(usageMessage("print", "--again") == "--again only applies to importing lots: commonbroker import lots FILE.csv --again")
        #expect(usageMessage("import", "lots", "a.csv", "--again=yes") == "option '--again' takes no value; see commonbroker --help")
    }

    @Test func helpTextShowsImportLotsAndTheLotsFormat() {
        let help = CommandLineArguments.helpText
        for expected in [
            "commonbroker import lots FILE.csv [--again]", "import lots FILE", "--again", "LOTS (import lots)",
            "date, symbol, quantity, price, and optionally fees", "YYYY-MM-DD", "holdings.json",
        ] {
            #expect(help.contains(expected), "help lacks \(expected)")
        }
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(line.count <= 80, "too wide: \(line)")
        }
    }
}
