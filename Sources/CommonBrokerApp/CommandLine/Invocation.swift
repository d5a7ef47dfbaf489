/// What the command line asks for.
public enum Invocation: Sendable, Equatable {
    case help
    case version
    /// The interactive watchlist.
    case run(RunOptions)
    /// One round of quotes printed to standard output, as a table or as JSON.
    case print(RunOptions, json: Bool)
    /// Hidden: the paper broker under a burst of orders, for the kill -9 end-to-end test.
    case paperStress(PaperStressOptions)
}
