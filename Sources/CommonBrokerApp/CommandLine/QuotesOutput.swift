/// How `commonbroker print` writes the watchlist's quotes.
public enum QuotesOutput: Sendable, Equatable {
    /// One round of quotes as an aligned table, for people.
    case table
    /// `--json`: one round as a JSON array of row objects.
    case json
    /// `--csv`: one round as RFC 4180 CSV with a header row.
    case csv
    /// `--follow`: one JSON object a line for every quote (and every failure) as it arrives, the same
    /// objects as `--json`'s, until SIGINT or SIGTERM.
    case follow
}
