extension CommandLineArguments {
    /// The text of `commonbroker --help`, ending with a newline (else the shell's prompt lands on its
    /// last line). The broker lines come from `AppConfig.BrokerSchema.all`, so a
    /// new broker appears here by itself.
    public static var helpText: String {
        """
        commonbroker \(CommonBrokerVersion.string): one live watchlist, quoted by several brokers side by side

        USAGE
          commonbroker [--demo] [--config PATH] [--symbols LIST] [--no-color]
                       [--env production|sandbox] [--record DIR | --replay DIR]
          commonbroker print [--json|--csv|--follow] [same options]
          commonbroker print positions|orders [--json|--csv] [same options]
          commonbroker import lots FILE.csv [--again]
          commonbroker relay [--config PATH] [--env production|sandbox]
          commonbroker --help | --version

        COMMANDS
          (none)            Open the interactive watchlist.
          print             Fetch one round of quotes, print them and exit; with
                            --follow, print each quote as it arrives until stopped.
          print positions   Every position at every trading broker (and the holdings
                            kept elsewhere), valued at a fresh quote, with totals.
          print orders      Every order at every trading broker, open ones first.
          import lots FILE  Add the lots in a CSV file to the book of holdings kept
                            elsewhere, shown with the positions; all or nothing:
                            a file with errors imports nothing (see LOTS below).
          relay             Hold every broker's connection for the terminals on the
                            bus (config "bus"), with no screen: logs to standard
                            error, stops on SIGTERM or Ctrl-C.

        OPTIONS
          --demo            Use only the built-in demo brokers (no account, no network).
          --config PATH     Read this config file instead of the default; it must exist.
          --symbols LIST    Watch these symbols in this run, not the saved watchlist;
                            separate them with commas or spaces: AAPL,MSFT
          --no-color        Draw without colors.
          --env ENV         Talk to every real broker's production or sandbox servers,
                            whatever the config says.
          --record DIR      Also write every HTTP request and response to DIR, with
                            secrets redacted (to replay later or attach to a bug).
          --replay DIR      Answer from the recordings in DIR instead of the network.
          --json            With print: write JSON instead of a table.
          --csv             With print: write CSV (RFC 4180, a header row first).
          --follow          With print: one JSON object a line for every quote as it
                            arrives, the fields of --json, until Ctrl-C or SIGTERM
                            (then exit 0); for jq: print --follow | jq -c .last
          --again           With import lots: import a file imported before.
          -h, --help        Show this help.
          --version         Show the version.
          Options with a value also accept the form --option=value.

        CONFIGURATION
          A JSON object; every key is optional and keys starting with "//" are
          comments. config.example.json documents every key.
          symbols                  first-run watchlist, e.g. ["AAPL", "MSFT"]
          staleAfterSeconds        quotes older than this show as stale (30)
          highlightMilliseconds    how long a price change is highlighted (1000)
          color                    false draws without colors (true)
          theme.up, theme.down     colors of rising and falling prices (green, red)
          brokers.demo             enabled, seed, tickIntervalMs, staleAfterSeconds (5;
                                   the stale threshold when only the demo runs)
          brokers.BROKER           enabled, environment, baseURL,
                                   pollIntervalSeconds, and for each broker:
        \(brokerLines)

        LOTS (import lots)
          A CSV file (UTF-8, RFC 4180 quoting) whose first line names the columns, in
          any order and any case: date, symbol, quantity, price, and optionally fees
          and broker; then one lot a line: 2024-03-15,AAPL,10,150.25,1.00,Fidelity IRA
          date      the trade day, YYYY-MM-DD
          quantity  shares: positive when bought, negative when sold
          price     per share; fees: paid on top (empty is 0); plain decimals only,
                    no $ or thousands separators
          broker    where the shares are held, a label of up to 32 characters

        ENVIRONMENT
          NO_COLOR                 if set and not empty, draw without colors
          XDG_CONFIG_HOME          base of the config directory (default ~/.config)
          XDG_STATE_HOME           base of the state directory (~/.local/state)
        \(credentialVariableLines)
                                   broker credentials; they win over the config file

        FILES
          ~/.config/commonbroker/config.json
                    the configuration (under $XDG_CONFIG_HOME if that is set)
          ~/.local/state/commonbroker/
                    the watchlist as edited in the app (under $XDG_STATE_HOME if set),
                    and holdings.json, the lots imported with import lots

        """
    }

    /// `    tradier              token (or $TRADIER_TOKEN)` for each real broker, wrapped at 80 columns.
    private static var brokerLines: String {
        AppConfig.BrokerSchema.all.map { schema in
            let credentials = schema.credentials.map { "\($0.key) (or $\($0.defaultEnvironmentVariable))" }
            let choices = schema.choices.map { "\($0.key): \($0.allowed.joined(separator: "|"))" }
            let name = "    " + schema.id
            return wrapped(credentials + choices, firstPrefix: name + String(repeating: " ", count: max(1, 27 - name.count)), indent: 27)
        }.joined(separator: "\n")
    }

    /// `items` joined with ", ", broken into lines of at most 80 columns.
    private static func wrapped(_ items: [String], firstPrefix: String, indent: Int) -> String {
        var lines: [String] = []
        var line = firstPrefix
        var lineHasItem = false
        for (index, item) in items.enumerated() {
            let piece = item + (index < items.count - 1 ? "," : "")
            if lineHasItem && line.count + 1 + piece.count > 80 {
                lines.append(line)
                line = String(repeating: " ", count: indent) + piece
            } else {
                line += (lineHasItem ? " " : "") + piece
            }
            lineHasItem = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The credential variables, wrapped to stay within 80 columns.
    private static var credentialVariableLines: String {
        wrapped(AppConfig.BrokerSchema.all.flatMap { $0.credentials.map(\.defaultEnvironmentVariable) }, firstPrefix: "  ", indent: 2)
    }
}
