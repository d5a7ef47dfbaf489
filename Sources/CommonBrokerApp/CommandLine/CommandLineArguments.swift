import Domain
import TextSafety

/// Parses `commonbroker [print [--json]] [--demo] [--config PATH] [--symbols LIST] [--no-color]
/// [--env production|sandbox] [--record DIR | --replay DIR]`,
/// plus `--help`/`-h` and `--version`. Options with a value take it as the next argument or after `=`.
public enum CommandLineArguments {
    static let helpReminder = "see commonbroker --help"
    static let flagOptions = ["--demo", "--no-color", "--json", "--help", "-h", "--version"]
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
            return isPrint ? .print(options, json: json) : .run(options)
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
            let isFirstPositional = !isPrint
            switch argument {
            case "print" where isFirstPositional:
                isPrint = true
            default:
                let hint = isFirstPositional ? "the only command is print" : "print takes no arguments"
                throw UsageError("unexpected argument '\(VisibleText.escaped(argument))'; \(hint); \(CommandLineArguments.helpReminder)")
            }
        }
    }
}
