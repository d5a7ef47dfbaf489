extension CommandLineArguments {
    /// The text of `commonbroker --help`. The broker lines come from `AppConfig.BrokerSchema.all`, so a
    /// new broker appears here by itself.
    public static var helpText: String {
        """
        commonbroker \(CommonBrokerVersion.string): one live watchlist, quoted by several brokers side by side

        USAGE
          commonbroker [--demo] [--config PATH] [--symbols LIST] [--no-color]
          commonbroker print [--json] [--demo] [--config PATH] [--symbols LIST] [--no-color]
          commonbroker --help | --version

        COMMANDS
          (none)            Open the interactive watchlist.
          print             Fetch one round of quotes, print them as a table and exit.

        OPTIONS
          --demo            Use only the built-in demo brokers: no accounts, no network.
          --config PATH     Read this config file instead of the default one; it must exist.
          --symbols LIST    Watch these symbols in this run instead of the saved watchlist,
                            separated by commas or spaces: --symbols AAPL,MSFT
          --no-color        Draw without colors.
          --json            With print: write JSON instead of a table.
          -h, --help        Show this help.
          --version         Show the version.
          Every option with a value also accepts --option=value.

        CONFIGURATION (JSON; keys starting with "//" are comments; see config.example.json)
          symbols                  first-run watchlist, e.g. ["AAPL", "MSFT", "NVDA"]
          staleAfterSeconds        show quotes older than this as stale (default 30)
          highlightMilliseconds    how long a changed price stays highlighted (1000; 0 = off)
          color                    false draws without colors (default true)
          theme.up, theme.down     colors of rising and falling prices (green, red)
          brokers.demo             enabled, seed, tickIntervalMs
          brokers.BROKER           enabled, environment, baseURL, pollIntervalSeconds, plus:
        \(brokerLines)

        ENVIRONMENT
          NO_COLOR                 if set and not empty, draw without colors
          XDG_CONFIG_HOME          base of the config directory (default ~/.config)
          XDG_STATE_HOME           base of the state directory (default ~/.local/state)
        \(credentialVariableLines)
                                   broker credentials; they win over the config file

        FILES
          $XDG_CONFIG_HOME/commonbroker/config.json    (default ~/.config/commonbroker/config.json)
          $XDG_STATE_HOME/commonbroker/                the watchlist as edited in the app
                                                       (default ~/.local/state/commonbroker/)
        """
    }

    /// `    tradier              token (or $TRADIER_TOKEN)` for each real broker.
    private static var brokerLines: String {
        AppConfig.BrokerSchema.all.map { schema in
            let credentials = schema.credentials.map { "\($0.key) (or $\($0.defaultEnvironmentVariable))" }
            let choices = schema.choices.map { "\($0.key): \($0.allowed.joined(separator: "|"))" }
            let name = "    " + schema.id
            return name + String(repeating: " ", count: max(1, 27 - name.count)) + (credentials + choices).joined(separator: ", ")
        }.joined(separator: "\n")
    }

    /// The credential variables, wrapped to stay within 80 columns.
    private static var credentialVariableLines: String {
        let names = AppConfig.BrokerSchema.all.flatMap { $0.credentials.map(\.defaultEnvironmentVariable) }
        var lines: [String] = []
        var line = ""
        for name in names {
            let candidate = line.isEmpty ? name : line + ", " + name
            if candidate.count > 76 - 2, !line.isEmpty {
                lines.append("  " + line + ",")
                line = name
            } else {
                line = candidate
            }
        }
        lines.append("  " + line)
        return lines.joined(separator: "\n")
    }
}
