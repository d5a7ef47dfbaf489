/// What the command line asks for.
public enum Invocation: Sendable, Equatable {
    case help
    case version
    /// The interactive watchlist.
    case run(RunOptions)
    /// The watchlist's quotes on standard output: one round as a table, JSON or CSV, or followed as JSON lines.
    case print(RunOptions, QuotesOutput)
    /// `print positions|orders [--json|--csv]`: every trading broker's positions or orders, for scripts.
    case printPortfolio(RunOptions, PortfolioReport.Kind, PortfolioReport.Format)
    /// `import lots FILE [--again]`: add the lots of a CSV file to the holdings book; `again` imports a
    /// file whose bytes were imported before.
    case importLots(file: String, again: Bool)
    /// `relay`: a headless leader on the bus: holds the brokers' connections for every terminal, logs to
    /// standard error, stops on SIGTERM or SIGINT.
    case relay(RunOptions)
    /// Hidden: the paper broker under a burst of orders, for the kill -9 end-to-end test.
    case paperStress(PaperStressOptions)
}
