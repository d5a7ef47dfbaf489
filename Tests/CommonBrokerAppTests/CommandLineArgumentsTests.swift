import Testing
@testable import CommonBrokerApp

@Suite struct CommandLineArgumentsTests {
    private func parse(_ arguments: String...) -> Result<Invocation, UsageError> {
        CommandLineArguments.parse(arguments)
    }

    private func usageMessage(_ arguments: String...) -> String {
        switch CommandLineArguments.parse(arguments) {
        case .success(let invocation): "parsed as \(invocation)"
        case .failure(let error): error.description
        }
    }

    @Test func noArgumentsRunsTheApp() throws {
        #expect(try parse().get() == .run(RunOptions()))
        #expect(try CommandLineArguments.parse(["commonbroker", "--demo"].dropFirst()).get() == .run(RunOptions(demo: true)))
    }

    @Test func everyOption() throws {
        let invocation = try parse("--demo", "--config", "/tmp/c.json", "--symbols", "aapl,msft", "--no-color").get()
        #expect(invocation == .run(RunOptions(demo: true, configPath: "/tmp/c.json", symbols: ["AAPL", "MSFT"], noColor: true)))
    }

    @Test func equalsForm() throws {
        let invocation = try parse("--config=~/x=y.json", "--symbols=nvda tsla").get()
        #expect(invocation == .run(RunOptions(configPath: "~/x=y.json", symbols: ["NVDA", "TSLA"])))
    }

    @Test func symbolsSplitOnCommasAndSpacesAccumulateAndDeduplicate() throws {
        let invocation = try parse("--symbols", "AAPL, msft  brk.b", "--symbols=aapl,,NVDA").get()
        #expect(invocation == .run(RunOptions(symbols: ["AAPL", "MSFT", "BRK.B", "NVDA"])))
    }

    @Test func printCommand() throws {
        #expect(try parse("print").get() == .print(RunOptions(), .table))
        #expect(try parse("print", "--json").get() == .print(RunOptions(), .json))
        #expect(try parse("--demo", "print", "--json", "--symbols", "IBM").get() == .print(RunOptions(demo: true, symbols: ["IBM"]), .json))
        #expect(try parse("print", "--csv").get() == .print(RunOptions(), .csv))
        #expect(try parse("--demo", "print", "--follow").get() == .print(RunOptions(demo: true), .follow))
        // --follow writes JSON anyway: --json beside it asks for nothing else.
        #expect(try parse("print", "--follow", "--json").get() == .print(RunOptions(), .follow))
    }

    @Test func printFormatsThatCannotGoTogetherAreNamed() {
        #expect(usageMessage("print", "--csv", "--json") == "--json and --csv cannot be combined: pick one format")
        #expect(usageMessage("print", "--follow", "--csv")
            == "--follow writes one JSON object a line and cannot write CSV: use print --follow, or print --csv for one round")
        #expect(usageMessage("print", "orders", "--follow")
            == "--follow follows quotes, not orders: commonbroker print --follow, or print orders once")
        #expect(usageMessage("--follow") == "--follow only applies to the print command: commonbroker print --follow")
        #expect(usageMessage("relay", "--csv") == "--csv only applies to the print command: commonbroker print --csv")
        #expect(usageMessage("print", "--follow=yes") == "option '--follow' takes no value; see commonbroker --help")
        #expect(usageMessage("print", "--folow") == "unknown option '--folow' (did you mean '--follow'?); see commonbroker --help")
    }

    @Test func printPositionsAndOrders() throws {
        #expect(try parse("print", "positions").get() == .printPortfolio(RunOptions(), .positions, .table))
        #expect(try parse("print", "orders", "--csv").get() == .printPortfolio(RunOptions(), .orders, .csv))
        #expect(try parse("--demo", "print", "positions", "--json").get() == .printPortfolio(RunOptions(demo: true), .positions, .json))
        #expect(usageMessage("print", "orders", "--csv", "--json") == "--json and --csv cannot be combined: pick one format")
        #expect(usageMessage("print", "orders", "positions").hasPrefix("unexpected argument 'positions'; print takes positions or orders, or nothing for quotes"))
    }

    @Test func portfolioReportsEscapeAndQuote() {
        let csv = PortfolioReport.csv(header: ["a", "b"], rows: [["x,y", "say \"hi\"\u{1B}[2J"], [nil, "plain"]])
        #expect(csv == "a,b\r\n\"x,y\",\"say \"\"hi\"\"\\u{1b}[2J\"\r\n,plain\r\n")
        #expect(PortfolioReport.string("a\u{1B}\"b") == #""a\u001b\"b""#)
        #expect(PortfolioReport.string(nil) == "null")
    }

    @Test func helpAndVersion() throws {
        #expect(try parse("--help").get() == .help)
        #expect(try parse("-h").get() == .help)
        #expect(try parse("print", "--json", "-h").get() == .help)
        #expect(try parse("--version").get() == .version)
        #expect(CommonBrokerVersion.string == "0.1.0")
    }

    @Test func unknownOptions() {
        #expect(usageMessage("--foo") == "unknown option '--foo'; see commonbroker --help")
        #expect(usageMessage("--foo=1") == "unknown option '--foo'; see commonbroker --help")
        #expect(usageMessage("-x") == "unknown option '-x'; see commonbroker --help")
        #expect(usageMessage("--nocolor") == "unknown option '--nocolor' (did you mean '--no-color'?); see commonbroker --help")
    }

    @Test func missingOrUnexpectedValues() {
        #expect(usageMessage("--config") == "option '--config' needs a value: --config PATH")
        #expect(usageMessage("--config", "--demo") == "option '--config' needs a value: --config PATH")
        #expect(usageMessage("--config=") == "option '--config' needs a value: --config PATH")
        #expect(usageMessage("--symbols") == "option '--symbols' needs a value: --symbols AAPL,MSFT")
        #expect(usageMessage("--symbols", " , ") == "option '--symbols' needs at least one symbol: --symbols AAPL,MSFT")
        #expect(usageMessage("--demo=yes") == "option '--demo' takes no value; see commonbroker --help")
        #expect(usageMessage("--config", "a.json", "--config", "b.json") == "option '--config' is given more than once; pass a single config file")
    }

    @Test func invalidSymbolIsNamed() {
        #expect(usageMessage("--symbols", "AAPL,MS$FT") == "invalid symbol in --symbols: MS$FT contains '$'; use letters, digits, . - / ^")
        #expect(usageMessage("--symbols=ABCDEFGHIJKLMNOP") == "invalid symbol in --symbols: ABCDEFGHIJKLMNOP is longer than 15 characters")
    }

    /// Text from the command line is quoted as typed (not upper-cased) and escaped, so an escape sequence
    /// in an argument cannot colour or move anything in the terminal.
    @Test func argumentsAreQuotedAsTypedAndEscaped() {
        #expect(usageMessage("--symbols", "A\u{1B}[31mb") == "invalid symbol in --symbols: A\\u{1b}[31mb contains '\\u{1b}'; use letters, digits, . - / ^")
        #expect(usageMessage("pr\u{1B}]0;x\u{7}int") == "unexpected argument 'pr\\u{1b}]0;x\\u{7}int'; the commands are print, import lots and relay; see commonbroker --help")
        #expect(usageMessage("--b\u{202E}ad") == "unknown option '--b\\u{202e}ad'; see commonbroker --help")
        #expect(usageMessage("--env", "\u{9B}2J") == "option '--env' takes production or sandbox, not '\\u{9b}2J'")
    }

    @Test func relay() {
        #expect((try? parse("relay").get()) == .relay(RunOptions()))
        #expect((try? parse("relay", "--config", "/etc/cb.json", "--env", "sandbox").get()) == .relay(RunOptions(configPath: "/etc/cb.json", environment: "sandbox")))
        #expect(usageMessage("relay", "now") == "unexpected argument 'now'; relay takes only options; see commonbroker --help")
        #expect(usageMessage("relay", "--demo").contains("--demo and --symbols do not apply"))
        #expect(usageMessage("relay", "--json") == "--json only applies to the print command: commonbroker print --json")
    }

    @Test func positionalArguments() {
        #expect(usageMessage("AAPL") == "unexpected argument 'AAPL'; the commands are print, import lots and relay; see commonbroker --help")
        #expect(usageMessage("print", "print") == "unexpected argument 'print'; print takes positions or orders, or nothing for quotes; see commonbroker --help")
        #expect(usageMessage("--", "--demo") == "unexpected argument '--demo'; the commands are print, import lots and relay; see commonbroker --help")
        #expect(usageMessage("--json") == "--json only applies to the print command: commonbroker print --json")
    }

    @Test func helpTextCoversCommandsOptionsKeysEnvironmentAndFiles() {
        let help = CommandLineArguments.helpText
        for expected in [
            "commonbroker 0.1.0", "USAGE", "print", "--demo", "--config PATH", "--symbols LIST", "--no-color", "--json",
            "-h, --help", "--version", "--option=value", "staleAfterSeconds", "highlightMilliseconds", "theme.up",
            "brokers.demo", "tickIntervalMs", "pollIntervalSeconds", "NO_COLOR", "XDG_CONFIG_HOME", "XDG_STATE_HOME",
            "TRADIER_TOKEN", "APCA_API_KEY_ID", "APCA_API_SECRET_KEY", "FINNHUB_TOKEN", "POLYGON_API_KEY",
            "config.example.json", "~/.config/commonbroker/config.json", "~/.local/state/commonbroker/",
        ] {
            #expect(help.contains(expected), "help lacks \(expected)")
        }
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(line.count <= 80, "too wide: \(line)")
        }
    }
}


@Suite struct EnvironmentAndRecordingOptionTests {
    @Test func environmentRecordAndReplayAreParsed() throws {
        let parsed = try CommandLineArguments.parse(["--env", "sandbox", "--record=/tmp/rec"]).get()
        #expect(parsed == .run(RunOptions(environment: "sandbox", recordDirectory: "/tmp/rec")))
        let replay = try CommandLineArguments.parse(["print", "--replay", "fixtures"]).get()
        #expect(replay == .print(RunOptions(replayDirectory: "fixtures"), .table))
    }

    @Test func badCombinationsAreRefusedWithTheReason() {
        #expect(CommandLineArguments.parse(["--env", "staging"]).failureMessage == "option '--env' takes production or sandbox, not 'staging'")
        #expect(CommandLineArguments.parse(["--record", "a", "--replay", "b"]).failureMessage == "--record and --replay cannot be combined: record once, then replay")
        #expect(CommandLineArguments.parse(["--replay"]).failureMessage == "option '--replay' needs a value: --replay DIR")
    }
}

private extension Result where Failure == UsageError {
    var failureMessage: String? {
        if case .failure(let error) = self { return error.message }
        return nil
    }
}
