import Domain
import TextSafety

/// Parses `commonbroker [print [--json|--csv|--follow]] [--demo] [--config PATH] [--symbols LIST] [--no-color]
/// [--env production|sandbox] [--record DIR | --replay DIR]`, `commonbroker import lots FILE [--again]`,
/// plus `--help`/`-h` and `--version`. Options with a value take it as the next argument or after `=`.
public enum CommandLineArguments {
    static let helpReminder = "see commonbroker --help"
    static let flagOptions = ["--demo", "--no-color", "--json", "--csv", "--follow", "--help", "-h", "--version", "--again"]
    static let valueOptions = ["--config", "--symbols", "--env", "--record", "--replay"]

    /// `arguments` excludes the program name: pass `CommandLine.arguments.dropFirst()`.
    public static func parse<Arguments: Collection<String>>(_ arguments: Arguments) -> Result<Invocation, UsageError> {
        if arguments.first == PaperStressOptions.command {
            return PaperStressOptions.parse(arguments.dropFirst()).map(Invocation.paperStress)
        }
        var parser = Parser(arguments: Array(arguments))
        do throws(UsageError) {
            return .success(try parser.parse())
        } catch {
            return .failure(error)
        }
    }

    private struct Parser {
        let arguments: [String]
        var index = 0
        var options = RunOptions()
        var isPrint = false
        var json = false
        var csv = false
        var follow = false
        /// `print positions` or `print orders`.
        var portfolio: PortfolioReport.Kind?
        /// `import`, then `lots`, then the file: each set as its word is read.
        var isImport = false
        var isRelay = false
        var importsLots = false
        var importFile: String?
        var again = false
        /// The first option given that belongs to the watchlist and print, to refuse it with import.
        var runOption: String?

        init(arguments: [String]) {
            self.arguments = arguments
        }

        mutating func parse() throws(UsageError) -> Invocation {
            var optionsEnded = false
            while index < arguments.count {
                let argument = arguments[index]
                index += 1
                if !optionsEnded && argument == "--" {
                    optionsEnded = true
                } else if !optionsEnded && argument.hasPrefix("-") && argument != "-" {
                    if let early = try option(argument) { return early }
                } else {
                    try positional(argument)
                }
            }
            if options.recordDirectory != nil && options.replayDirectory != nil {
                throw UsageError("--record and --replay cannot be combined: record once, then replay")
            }
            if json && !isPrint {
                throw UsageError("--json only applies to the print command: commonbroker print --json")
            }
            if csv && !isPrint {
                throw UsageError("--csv only applies to the print command: commonbroker print --csv")
            }
            if csv && json {
                throw UsageError("--json and --csv cannot be combined: pick one format")
            }
            if follow && !isPrint {
                throw UsageError("--follow only applies to the print command: commonbroker print --follow")
            }
            if follow, let portfolio {
                throw UsageError("--follow follows quotes, not \(portfolio.rawValue): commonbroker print --follow, or print \(portfolio.rawValue) once")
            }
            if follow && csv {
                throw UsageError("--follow writes one JSON object a line and cannot write CSV: use print --follow, or print --csv for one round")
            }
            if again && !isImport {
                throw UsageError("--again only applies to importing lots: commonbroker import lots FILE.csv --again")
            }
            if isImport {
                guard importsLots, let importFile else {
                    throw UsageError("import needs what and from where: commonbroker import lots FILE.csv")
                }
                if let runOption {
                    throw UsageError("option '\(runOption)' does not apply to import lots, which takes a file and --again")
                }
                return .importLots(file: importFile, again: again)
            }
            if isRelay {
                if options.demo || options.symbols != nil {
                    throw UsageError("relay takes the brokers of the config and serves what the terminals show; --demo and --symbols do not apply")
                }
                return .relay(options)
            }
            if let portfolio {
                return .printPortfolio(options, portfolio, json ? .json : csv ? .csv : .table)
            }
            return isPrint ? .print(options, follow ? .follow : json ? .json : csv ? .csv : .table) : .run(options)
        }

        /// Handles one option; returns an invocation when the option settles it on its own (`--help`).
        private mutating func option(_ argument: String) throws(UsageError) -> Invocation? {
            let name: String
            let inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
                inlineValue = nil
            }
            if CommandLineArguments.flagOptions.contains(name), inlineValue != nil {
                throw UsageError("option '\(name)' takes no value; \(CommandLineArguments.helpReminder)")
            }
            if runOption == nil, !["--help", "-h", "--version", "--again"].contains(name) {
                runOption = name
            }
            switch name {
            case "--help", "-h":
                return .help
            case "--version":
                return .version
            case "--demo":
                options.demo = true
            case "--no-color":
                options.noColor = true
            case "--json":
                json = true
            case "--csv":
                csv = true
            case "--follow":
                follow = true
            case "--again":
                again = true
            case "--config":
                if options.configPath != nil {
                    throw UsageError("option '--config' is given more than once; pass a single config file")
                }
                options.configPath = try value(of: name, inline: inlineValue, placeholder: "PATH")
            case "--env":
                let environment = try value(of: name, inline: inlineValue, placeholder: "production|sandbox")
                guard ["production", "sandbox"].contains(environment) else {
                    throw UsageError("option '--env' takes production or sandbox, not '\(VisibleText.escaped(environment))'")
                }
                options.environment = environment
            case "--record":
                options.recordDirectory = try value(of: name, inline: inlineValue, placeholder: "DIR")
            case "--replay":
                options.replayDirectory = try value(of: name, inline: inlineValue, placeholder: "DIR")
            case "--symbols":
                let list = try value(of: name, inline: inlineValue, placeholder: "AAPL,MSFT")
                options.symbols = try symbols(list, adding: options.symbols ?? [])
            default:
                let suggestion = SpellingSuggestion.closest(
                    to: name, among: CommandLineArguments.flagOptions + CommandLineArguments.valueOptions
                ).map { " (did you mean '\($0)'?)" } ?? ""
                throw UsageError("unknown option '\(VisibleText.escaped(name))'\(suggestion); \(CommandLineArguments.helpReminder)")
            }
            return nil
        }

        private mutating func value(of name: String, inline: String?, placeholder: String) throws(UsageError) -> String {
            let missing = UsageError("option '\(name)' needs a value: \(name) \(placeholder)")
            if let inline {
                guard !inline.isEmpty else { throw missing }
                return inline
            }
            // An option where the value should be is almost always a forgotten value, not a
            // path that starts with '-'; such a path can still be given as --config=-odd or ./-odd.
            guard index < arguments.count, !(arguments[index].hasPrefix("-") && arguments[index].count > 1) else {
                throw missing
            }
            index += 1
            guard !arguments[index - 1].isEmpty else { throw missing }
            return arguments[index - 1]
        }

        private func symbols(_ list: String, adding existing: [String]) throws(UsageError) -> [String] {
            let parts = Symbol.split(list)
            guard !parts.isEmpty else {
                throw UsageError("option '--symbols' needs at least one symbol: --symbols AAPL,MSFT")
            }
            var symbols = existing
            for part in parts {
                switch Symbol.normalize(part) {
                case .success(let symbol):
                    if !symbols.contains(symbol) { symbols.append(symbol) }
                case .failure(let error):
                    throw UsageError("invalid symbol in --symbols: \(error)")
                }
            }
            return symbols
        }

        private mutating func positional(_ argument: String) throws(UsageError) {
            if isImport {
                try importPositional(argument)
                return
            }
            let isFirstPositional = !isPrint && !isRelay
            switch argument {
            case "relay" where isFirstPositional:
                isRelay = true
            case "print" where isFirstPositional:
                isPrint = true
            case "import" where isFirstPositional:
                isImport = true
            case "positions" where isPrint && portfolio == nil:
                portfolio = .positions
            case "orders" where isPrint && portfolio == nil:
                portfolio = .orders
            default:
                let hint = isFirstPositional ? "the commands are print, import lots and relay"
                    : isRelay ? "relay takes only options" : "print takes positions or orders, or nothing for quotes"
                throw UsageError("unexpected argument '\(VisibleText.escaped(argument))'; \(hint); \(CommandLineArguments.helpReminder)")
            }
        }

        /// `lots`, then the file; a file named like an option goes after `--`.
        private mutating func importPositional(_ argument: String) throws(UsageError) {
            if !importsLots {
                guard argument == "lots" else {
                    throw UsageError("cannot import '\(VisibleText.escaped(argument))': the one thing to import is lots: commonbroker import lots FILE.csv")
                }
                importsLots = true
            } else if importFile == nil {
                guard !argument.isEmpty else { throw UsageError("import lots needs a file name: commonbroker import lots FILE.csv") }
                importFile = argument
            } else {
                throw UsageError("unexpected argument '\(VisibleText.escaped(argument))'; import lots takes one file; \(CommandLineArguments.helpReminder)")
            }
        }
    }
}
